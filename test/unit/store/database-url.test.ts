// The team store's URLs are printed only without their passwords, in whatever form a message holds them.
import { describe, expect, it } from 'vitest';
import { databaseUrlProblem, redactDatabaseUrl, withoutPassword } from '../../../src-main/core/store/database-url';

describe('database URLs', () => {
  it('accepts postgres:// and postgresql:// and says what else is wrong', () => {
    expect(databaseUrlProblem('postgres://desk:pw@db.example:5432/team')).toBeNull();
    expect(databaseUrlProblem('postgresql://db.example/team')).toBeNull();
    expect(databaseUrlProblem('mysql://db.example/team')).toMatch(/postgres:\/\/ or postgresql:\/\/ URL, got mysql:/);
    expect(databaseUrlProblem('team')).toMatch(/postgres:\/\/user:password@host:5432\/database/);
  });

  it('replaces the password and password-like parameters with ***', () => {
    expect(redactDatabaseUrl('postgres://desk:s3cr%40t@db.example:5432/team?sslmode=require')).toBe('postgres://desk:***@db.example:5432/team?sslmode=require');
    expect(redactDatabaseUrl('postgres://desk@db.example/team?password=hunter2')).toBe('postgres://desk@db.example/team?password=***');
    expect(redactDatabaseUrl('postgres://db.example/team')).toBe('postgres://db.example/team');
    expect(redactDatabaseUrl('not a url: pw')).not.toContain('pw');
  });

  it('takes the password out of any message, raw or percent-encoded', () => {
    const url = 'postgres://desk:s3cr%40t@db.example/team';
    const message = `could not connect with ${url}; password s3cr@t or s3cr%40t refused`;
    const clean = withoutPassword(message, url);
    expect(clean).not.toMatch(/s3cr/);
    expect(clean).toContain('postgres://desk:***@db.example/team');
  });

  it('keeps the URL readable when the password is also a word of it', () => {
    const url = 'postgres://postgres:postgres@db.example/team';
    expect(withoutPassword(`at ${url}: password authentication failed for user "postgres"`, url)).toBe(
      'at postgres://postgres:***@db.example/team: password authentication failed for user "***"',
    );
  });
});

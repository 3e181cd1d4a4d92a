import {
  AMOUNTS_MODES,
  BALANCE_UNITS,
  type AmountsMode,
  type BalanceProbeView,
  type BalanceUnits,
  type HeaderList,
  type ProfileInput,
  type ProfileView,
  type SecretState,
} from '../../../shared/model';
import { checkBalancePath, checkProbeHeaders, checkProbeHmacKey, checkProbeUrl } from '../../balance-probe/probe-config';
import { HMAC_KEY_ENTRY } from '../../balance-probe/probe-headers';
import { maskedBalanceUrl, probeSecrets } from '../../balance-probe/probe-secrets';
import { hasMaskedQueryValue, withKeptQueryValues } from '../../balance-probe/kept-query-values';
import { checkBaseUrl } from '../../base-url';
import { DEFAULT_CURRENCY, isCurrencyCode } from '../../../shared/money';
import { callbackPrefixProblem, DEFAULT_CALLBACK_PREFIX } from '../../protocol/callback-path';
import { DeskFailure } from '../../result';
import { overlapRefusal, slugOf } from '../rows/prefix-overlap';
import { fingerprint } from '../../signing/fingerprint';
import type { Db } from './open';
import type { SecretBox } from '../sealing/secret-box';
import type { SettingsStore } from './settings';
import { sealsSecret, type Profiles, type ProfileSecrets, type StoredSigningSecret } from '../contract/profiles';

interface ProfileRow {
  name: string;
  operator_url: string | null;
  base_url: string | null;
  operator_id: string | null;
  upstream: string | null;
  production: number;
  allow_self_signed: number;
  callback_prefix: string | null;
  amounts: AmountsMode;
  currency: string;
  public_url: string | null;
  secret_enc: Buffer | null;
  secret_fp: string | null;
  previous_secret_enc: Buffer | null;
  previous_secret_fp: string | null;
  api_key_enc: Buffer | null;
  api_key_fp: string | null;
  /** The balance URL with its query values masked: what a view shows. */
  balance_url: string | null;
  /** The whole balance URL, sealed, where it has a query value to mask (null: balance_url is the whole URL). */
  balance_url_enc: Buffer | null;
  balance_path: string | null;
  balance_units: BalanceUnits | null;
  balance_headers_enc: Buffer | null;
  /** JSON: [{ name, fingerprint }] of the sealed headers, what a view shows. */
  balance_headers: string | null;
  answer_balance_path: string | null;
}

const ACTIVE_KEY = 'active-profile';
const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

function secretState(fp: string | null): SecretState {
  return { set: fp !== null, fingerprint: fp };
}

/** The stored prefix: undefined leaves it, null or the default clears it (so the default can move with the spec). */
function checkedPrefix(prefix: string | null | undefined): string | null | undefined {
  if (prefix === undefined) return undefined;
  if (prefix === null || prefix.trim() === '' || prefix.trim() === DEFAULT_CALLBACK_PREFIX) return null;
  const problem = callbackPrefixProblem(prefix.trim());
  if (problem !== null) throw new DeskFailure('bad-input', `${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
  return prefix.trim();
}

/** The stored currency: undefined leaves it, null goes back to the default. */
function checkedCurrency(currency: string | null | undefined): string | undefined {
  if (currency === undefined) return undefined;
  if (currency === null || currency.trim() === '') return DEFAULT_CURRENCY;
  const code = currency.trim().toUpperCase();
  if (!isCurrencyCode(code)) throw new DeskFailure('bad-input', 'A currency is an ISO 4217 code of three letters (EUR, JPY).');
  return code;
}

function checkedUnits(units: BalanceUnits | null | undefined): BalanceUnits | null | undefined {
  if (units === undefined || units === null) return units;
  if (!BALANCE_UNITS.includes(units)) throw new DeskFailure('bad-input', `Balance units are ${BALANCE_UNITS.join(' or ')}, not "${String(units)}".`);
  return units;
}

function probeView(r: ProfileRow): BalanceProbeView {
  const headers = r.balance_headers === null ? [] : (JSON.parse(r.balance_headers) as Array<{ name: string; fingerprint: string }>);
  return {
    // Masked again: a URL stored in clear before query values were sealed is shown like a sealed one.
    url: r.balance_url === null ? null : maskedBalanceUrl(r.balance_url),
    path: r.balance_path,
    units: r.balance_units,
    headers: headers.filter((h) => h.name !== HMAC_KEY_ENTRY).map((h) => ({ name: h.name, value: secretState(h.fingerprint) })),
    hmacKey: secretState(headers.find((h) => h.name === HMAC_KEY_ENTRY)?.fingerprint ?? null),
    answerPath: r.answer_balance_path,
  };
}

function checkedAmounts(amounts: AmountsMode | undefined): AmountsMode | undefined {
  if (amounts === undefined) return undefined;
  if (!AMOUNTS_MODES.includes(amounts)) throw new DeskFailure('bad-input', `Amounts are ${AMOUNTS_MODES.join(' or ')}, not "${String(amounts)}".`);
  return amounts;
}

/** Named environments. Secrets are sealed by the SecretBox; views carry only set/unset and a fingerprint. */
export class ProfileStore implements Profiles {
  private readonly rowStmt;
  private readonly listStmt;
  private readonly deleteStmt;
  private readonly signingSecretsStmt;
  private readonly apiKeysStmt;
  private readonly probeHeadersStmt;

  /**
   * `activeMustExist`: the profiles are a team's copy, which another desk may change. The active profile
   * is each desk's own setting, so a profile removed elsewhere can still be named there: it then counts
   * as none active (the setting is kept, for the data directory's own profiles).
   */
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly settings: SettingsStore,
    private readonly activeMustExist = false,
  ) {
    this.rowStmt = db.prepare('SELECT * FROM profiles WHERE name = ?');
    this.listStmt = db.prepare('SELECT * FROM profiles ORDER BY name');
    this.deleteStmt = db.prepare('DELETE FROM profiles WHERE name = ?');
    this.signingSecretsStmt = db.prepare(
      'SELECT name, secret_enc, previous_secret_enc FROM profiles WHERE secret_enc IS NOT NULL OR previous_secret_enc IS NOT NULL ORDER BY name',
    );
    this.apiKeysStmt = db.prepare('SELECT api_key_enc FROM profiles WHERE api_key_enc IS NOT NULL ORDER BY name').pluck();
    this.probeHeadersStmt = db.prepare(
      'SELECT balance_headers_enc, balance_url, balance_url_enc FROM profiles WHERE balance_headers_enc IS NOT NULL OR balance_url IS NOT NULL ORDER BY name',
    );
  }

  private row(name: string): ProfileRow | undefined {
    return this.rowStmt.get(name) as ProfileRow | undefined;
  }

  private view(r: ProfileRow, activeName: string | null): ProfileView {
    return {
      name: r.name,
      active: activeName === r.name,
      operatorUrl: r.operator_url,
      baseUrl: r.base_url,
      operatorId: r.operator_id,
      upstream: r.upstream,
      production: r.production === 1,
      allowSelfSigned: r.allow_self_signed === 1,
      callbackPrefix: r.callback_prefix ?? DEFAULT_CALLBACK_PREFIX,
      amounts: r.amounts,
      currency: r.currency,
      publicUrl: r.public_url,
      secret: secretState(r.secret_fp),
      previousSecret: secretState(r.previous_secret_fp),
      apiKey: secretState(r.api_key_fp),
      balance: probeView(r),
    };
  }

  list(): ProfileView[] {
    const active = this.activeName();
    return (this.listStmt.all() as ProfileRow[]).map((r) => this.view(r, active));
  }

  get(name: string): ProfileView | null {
    const r = this.row(name);
    return r ? this.view(r, this.activeName()) : null;
  }

  activeName(): string | null {
    const name = this.settings.get(ACTIVE_KEY);
    return name !== null && this.activeMustExist && this.row(name) === undefined ? null : name;
  }

  /** Creates or updates a profile; only the fields present in the input change. The first profile becomes active. */
  save(input: ProfileInput): ProfileView {
    if (!NAME.test(input.name)) {
      throw new DeskFailure('bad-input', 'A profile name is 1 to 64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.');
    }
    // Base URLs are checked by the rule every send applies, so a profile never holds one a send refuses.
    const baseUrl = (what: string, v: string | null | undefined) =>
      v === undefined ? undefined : v === null || v.trim() === '' ? null : checkBaseUrl(what, v);
    const now = new Date().toISOString();
    // Every field is checked before anything changes: a refused input must not leave a new key behind.
    const checked: Record<string, unknown> = {
      operator_url: baseUrl('The operator URL', input.operatorUrl),
      base_url: baseUrl('The service base URL', input.baseUrl),
      operator_id: input.operatorId,
      upstream: baseUrl('The upstream', input.upstream),
      production: input.production === undefined ? undefined : input.production ? 1 : 0,
      allow_self_signed: input.allowSelfSigned === undefined ? undefined : input.allowSelfSigned ? 1 : 0,
      callback_prefix: checkedPrefix(input.callbackPrefix),
      amounts: checkedAmounts(input.amounts),
      currency: checkedCurrency(input.currency),
      public_url: baseUrl('The public URL', input.publicUrl),
      balance_path: input.balancePath === undefined ? undefined : checkBalancePath('The balance path', input.balancePath),
      balance_units: checkedUnits(input.balanceUnits),
      answer_balance_path: input.answerBalancePath === undefined ? undefined : checkBalancePath('The answer balance path', input.answerBalancePath),
    };
    const probeHeaders = this.probeHeaderList(input);
    const balanceUrl = this.balanceUrlToStore(input);
    this.checkPrevious(input);
    this.checkOverlap(input.name, checked.callback_prefix as string | null | undefined);
    // Re-entering a secret is a way out of a lost key: the secrets the key cannot open are cleared in the
    // same transaction (the refusal that sent the user here said so), so no sealed value is left that
    // nothing can open. Without a secret in the input, a lost key changes nothing here.
    const reentering = sealsSecret(input);
    if (reentering) this.box.startOver();
    const sealed = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : this.box.seal(v));
    const fp = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : fingerprint(v));
    const fields: Record<string, unknown> = {
      ...checked,
      secret_enc: sealed(input.secret),
      secret_fp: fp(input.secret),
      previous_secret_enc: sealed(input.previousSecret),
      previous_secret_fp: fp(input.previousSecret),
      api_key_enc: sealed(input.apiKey),
      api_key_fp: fp(input.apiKey),
      // The header values are sealed as one list; the names and fingerprints are what a view shows.
      balance_headers_enc: probeHeaders === undefined ? undefined : probeHeaders === null ? null : this.box.seal(JSON.stringify(probeHeaders)),
      balance_headers:
        probeHeaders === undefined
          ? undefined
          : probeHeaders === null
            ? null
            : JSON.stringify(probeHeaders.map(([name, value]) => ({ name, fingerprint: fingerprint(value) }))),
    };
    if (balanceUrl !== undefined) {
      // The query values are masked in the clear column and the whole URL sealed: a view, a listing and
      // the database file show no credential a query carries.
      const masked = balanceUrl === null ? null : maskedBalanceUrl(balanceUrl);
      fields.balance_url = masked;
      fields.balance_url_enc = balanceUrl === null || masked === balanceUrl ? null : this.box.seal(balanceUrl);
    }
    const given = Object.entries(fields).filter(([, v]) => v !== undefined);
    const prefixChanges = this.row(input.name) === undefined || checked.callback_prefix !== undefined;
    this.db
      .transaction(() => {
        if (reentering) this.clearUnreadable(now);
        this.db.prepare('INSERT OR IGNORE INTO profiles (name, created_at, updated_at) VALUES (?, ?, ?)').run(input.name, now, now);
        const sets = given.map(([k]) => `${k} = @${k}`).concat('updated_at = @updated_at');
        this.db.prepare(`UPDATE profiles SET ${sets.join(', ')} WHERE name = @name`).run({ ...Object.fromEntries(given), updated_at: now, name: input.name });
        if (prefixChanges) this.adoptUnassigned(input.name);
        // The first profile becomes active where none is chosen: a choice of the data directory's own
        // profiles (not among a team's) stays for when the desk is back on them.
        if (this.settings.get(ACTIVE_KEY) === null) this.settings.set(ACTIVE_KEY, input.name);
        // IMMEDIATE: the write lock first (waiting out busy_timeout). A deferred transaction that reads
        // before it writes fails at once, without waiting, when another process committed in between.
      })
      .immediate();
    return this.get(input.name)!;
  }

  /**
   * Captures that arrived under no profile's prefix (before the first profile, or before this prefix was
   * set) and lie under this profile's prefix are its captures: prefixes do not overlap, so this is the one
   * profile they can be told to belong to, the rule the schema's migration applied to older rows.
   */
  private adoptUnassigned(name: string): void {
    const prefix = this.row(name)?.callback_prefix ?? DEFAULT_CALLBACK_PREFIX;
    const under = prefix.endsWith('/') ? prefix : `${prefix}/`;
    this.db
      .prepare(
        `UPDATE exchanges SET profile = @name
         WHERE profile IS NULL AND direction = 'inbound' AND (path = @prefix OR substr(path, 1, length(@under)) = @under)`,
      )
      .run({ name, prefix, under });
  }

  /**
   * A new profile, or a new prefix, must not overlap another profile's prefix. A save that leaves the
   * prefix as it was is not refused (profiles saved before prefixes had to differ can still be edited).
   */
  private checkOverlap(name: string, prefix: string | null | undefined): void {
    const existing = this.row(name);
    if (existing && (prefix === undefined || prefix === existing.callback_prefix)) return;
    const wanted = prefix ?? existing?.callback_prefix ?? DEFAULT_CALLBACK_PREFIX;
    const others = (this.listStmt.all() as ProfileRow[]).map((r) => ({ name: r.name, prefix: r.callback_prefix }));
    const refusal = overlapRefusal(name, wanted, others);
    if (refusal) throw refusal;
  }

  /** A previous secret equal to the current one would say "valid with the previous secret" of a current signature. */
  private checkPrevious(input: ProfileInput): void {
    if (typeof input.previousSecret !== 'string' || input.previousSecret === '') return;
    const current =
      input.secret !== undefined
        ? input.secret === null || input.secret === ''
          ? null
          : fingerprint(input.secret)
        : (this.row(input.name)?.secret_fp ?? null);
    if (current === fingerprint(input.previousSecret)) {
      throw new DeskFailure('bad-input', 'The previous signing secret is the same as the current one: give the secret being rotated out.');
    }
  }

  /** Clears every sealed secret the key cannot open: after a lost key, only re-entering them helps. */
  private clearUnreadable(now: string): void {
    for (const r of this.listStmt.all() as ProfileRow[]) {
      if (r.secret_enc && !this.box.opens(r.secret_enc)) {
        this.db.prepare('UPDATE profiles SET secret_enc = NULL, secret_fp = NULL, updated_at = ? WHERE name = ?').run(now, r.name);
      }
      if (r.previous_secret_enc && !this.box.opens(r.previous_secret_enc)) {
        this.db.prepare('UPDATE profiles SET previous_secret_enc = NULL, previous_secret_fp = NULL, updated_at = ? WHERE name = ?').run(now, r.name);
      }
      if (r.api_key_enc && !this.box.opens(r.api_key_enc)) {
        this.db.prepare('UPDATE profiles SET api_key_enc = NULL, api_key_fp = NULL, updated_at = ? WHERE name = ?').run(now, r.name);
      }
      if (r.balance_headers_enc && !this.box.opens(r.balance_headers_enc)) {
        this.db.prepare('UPDATE profiles SET balance_headers_enc = NULL, balance_headers = NULL, updated_at = ? WHERE name = ?').run(now, r.name);
      }
      // The masked URL cannot be sent without its values: the probe's URL goes with them.
      if (r.balance_url_enc && !this.box.opens(r.balance_url_enc)) {
        this.db.prepare('UPDATE profiles SET balance_url_enc = NULL, balance_url = NULL, updated_at = ? WHERE name = ?').run(now, r.name);
      }
    }
  }

  /** The data directory's stored choice of the active profile, whether or not the profiles hold it. */
  activeSetting(): string | null {
    return this.settings.get(ACTIVE_KEY);
  }

  /** Puts a stored choice back (a team's change undone). */
  setActiveSetting(name: string | null): void {
    this.settings.set(ACTIVE_KEY, name);
  }

  /** Throws SecretKeyError (one line naming the key file and the ways out) when stored secrets cannot be opened. */
  checkKey(): void {
    this.box.check();
  }

  /** The sealed secrets were replaced from elsewhere (a team's database): the key is checked against them again. */
  sealedChanged(): void {
    this.box.forgetCheck();
  }

  /** The refusal checkKey would throw, as its one line, or null: for listings that show it as a warning. */
  keyProblem(): string | null {
    return this.box.problem()?.message ?? null;
  }

  duplicate(name: string, newName: string): ProfileView {
    const r = this.row(name);
    if (!r) throw new DeskFailure('not-found', `No profile named "${name}".`);
    if (this.row(newName)) throw new DeskFailure('bad-input', `A profile named "${newName}" already exists.`);
    if (!NAME.test(newName)) throw new DeskFailure('bad-input', `"${newName}" is not a valid profile name.`);
    // The copy cannot share the original's prefix (one proxy serves both): it gets one named after it.
    const prefix = `/${slugOf(newName)}`;
    this.checkOverlap(newName, prefix);
    const now = new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO profiles (name, operator_url, base_url, operator_id, upstream, production, allow_self_signed, callback_prefix, amounts, currency, public_url, secret_enc, secret_fp, previous_secret_enc, previous_secret_fp, api_key_enc, api_key_fp,
           balance_url, balance_url_enc, balance_path, balance_units, balance_headers_enc, balance_headers, answer_balance_path, created_at, updated_at)
         SELECT ?, operator_url, base_url, operator_id, upstream, production, allow_self_signed, ?, amounts, currency, public_url, secret_enc, secret_fp, previous_secret_enc, previous_secret_fp, api_key_enc, api_key_fp,
           balance_url, balance_url_enc, balance_path, balance_units, balance_headers_enc, balance_headers, answer_balance_path, ?, ? FROM profiles WHERE name = ?`,
      )
      .run(newName, prefix, now, now, name);
    return this.get(newName)!;
  }

  use(name: string): ProfileView {
    if (!this.row(name)) throw new DeskFailure('not-found', `No profile named "${name}".`);
    this.settings.set(ACTIVE_KEY, name);
    return this.get(name)!;
  }

  remove(name: string): void {
    const info = this.deleteStmt.run(name);
    if (info.changes === 0) throw new DeskFailure('not-found', `No profile named "${name}".`);
    if (this.settings.get(ACTIVE_KEY) === name) this.settings.set(ACTIVE_KEY, null);
  }

  /** The profile with its secrets opened. Main side only. */
  secrets(name: string): ProfileSecrets | null {
    const r = this.row(name);
    if (!r) return null;
    return {
      name: r.name,
      operatorUrl: r.operator_url,
      baseUrl: r.base_url,
      operatorId: r.operator_id,
      upstream: r.upstream,
      production: r.production === 1,
      allowSelfSigned: r.allow_self_signed === 1,
      callbackPrefix: r.callback_prefix ?? DEFAULT_CALLBACK_PREFIX,
      amounts: r.amounts,
      currency: r.currency,
      secret: r.secret_enc ? this.box.open(r.secret_enc) : null,
      previousSecret: r.previous_secret_enc ? this.box.open(r.previous_secret_enc) : null,
      apiKey: r.api_key_enc ? this.box.open(r.api_key_enc) : null,
      balance: {
        url: this.wholeBalanceUrl(r),
        path: r.balance_path,
        units: r.balance_units,
        headers: r.balance_headers_enc ? (JSON.parse(this.box.open(r.balance_headers_enc)) as HeaderList) : [],
        answerPath: r.answer_balance_path,
      },
    };
  }

  /**
   * Every stored signing secret with its profile name, each profile's current one before its previous
   * one (marked): the candidates for a verdict during a rotation and for a signature diagnosis.
   */
  allSigningSecrets(): StoredSigningSecret[] {
    const rows = this.signingSecretsStmt.all() as Array<{ name: string; secret_enc: Buffer | null; previous_secret_enc: Buffer | null }>;
    return rows.flatMap((r) => [
      ...(r.secret_enc ? [{ profile: r.name, secret: this.box.open(r.secret_enc) }] : []),
      ...(r.previous_secret_enc ? [{ profile: r.name, secret: this.box.open(r.previous_secret_enc), previous: true as const }] : []),
    ]);
  }

  /** The fingerprint of a profile's current signing secret (what a re-verification records), or null. */
  secretFingerprint(name: string): string | null {
    return this.row(name)?.secret_fp ?? null;
  }

  /** Every stored API key, opened: what redaction must find wherever headers are written out. */
  allApiKeys(): string[] {
    return (this.apiKeysStmt.all() as Buffer[]).map((sealed) => this.box.open(sealed));
  }

  /**
   * The sealed list a save stores (undefined: unchanged, null: none): the headers and the signing key are
   * sealed together, and a save that gives one keeps the other as stored.
   */
  private probeHeaderList(input: ProfileInput): HeaderList | null | undefined {
    if (input.balanceHeaders === undefined && input.balanceHmacKey === undefined) return undefined;
    const given = input.balanceHeaders === undefined ? undefined : (checkProbeHeaders(input.balanceHeaders) ?? []);
    const key = input.balanceHmacKey === undefined ? undefined : checkProbeHmacKey(input.balanceHmacKey);
    const sealed = this.row(input.name)?.balance_headers_enc ?? null;
    // A list the key cannot open is being replaced (a lost key): nothing of it is kept. problem() reads
    // the key first: opens() alone says false for a key not read yet.
    const stored = sealed !== null && this.box.problem() === null && this.box.opens(sealed) ? (JSON.parse(this.box.open(sealed)) as HeaderList) : [];
    const headers = given ?? stored.filter(([name]) => name !== HMAC_KEY_ENTRY);
    const keyValue = key === undefined ? (stored.find(([name]) => name === HMAC_KEY_ENTRY)?.[1] ?? null) : key;
    const list: HeaderList = keyValue === null ? headers : [...headers, [HMAC_KEY_ENTRY, keyValue]];
    return list.length === 0 ? null : list;
  }

  /**
   * Every stored balance-probe credential, opened, in each form it can appear alone (a token without its
   * scheme, Basic's user and password), and the balance URLs' credential-like query values: redaction
   * finds them like the other secrets.
   */
  allProbeCredentials(): string[] {
    const rows = this.probeHeadersStmt.all() as Array<Pick<ProfileRow, 'balance_headers_enc' | 'balance_url' | 'balance_url_enc'>>;
    return rows.flatMap((r) =>
      probeSecrets(r.balance_headers_enc ? (JSON.parse(this.box.open(r.balance_headers_enc)) as HeaderList) : null, this.wholeBalanceUrl(r)),
    );
  }

  /** The balance URL as the probe sends it: opened where it was sealed. */
  private wholeBalanceUrl(r: Pick<ProfileRow, 'balance_url' | 'balance_url_enc'>): string | null {
    return r.balance_url_enc ? this.box.open(r.balance_url_enc) : r.balance_url;
  }

  /**
   * The balance URL a save stores in full (undefined: unchanged, null: none). Query values given masked
   * keep the stored ones (a form shows them masked). A URL stored before query values were sealed, in
   * clear, is sealed by any save that has the key.
   */
  private balanceUrlToStore(input: ProfileInput): string | null | undefined {
    const r = this.row(input.name);
    if (input.balanceUrl === undefined) {
      // Not on a team's copy: a save that seals nothing may not have the team's key (team-profiles.ts).
      const storedInClear = r !== undefined && r.balance_url !== null && r.balance_url_enc === null && maskedBalanceUrl(r.balance_url) !== r.balance_url;
      return storedInClear && !this.activeMustExist && this.box.problem() === null ? r.balance_url : undefined;
    }
    const checked = checkProbeUrl(input.balanceUrl);
    if (checked === null) return null;
    const sealed = r?.balance_url_enc ?? null;
    // The URL as a view showed it, given back unchanged (a form saved for another field): nothing to open,
    // so a desk without the key (a lost one, a team's it lacks) can still save the other fields.
    if (sealed !== null && checked === r?.balance_url) return undefined;
    if (!hasMaskedQueryValue(checked)) return checked;
    // Keeping a masked value needs the key (open throws its one-line refusal, which says what to do).
    return withKeptQueryValues(checked, sealed === null ? (r?.balance_url ?? null) : this.box.open(sealed));
  }
}

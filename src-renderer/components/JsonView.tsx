import type { Finding } from '../../src-main/shared/model';
import { FindingLevelBadge } from './FindingLevelBadge';
import { jsonLines, placeFindings } from './json-lines';

/** Pretty-printed JSON with each finding shown under the field it is about. */
export function JsonView(props: { value: unknown; findings?: readonly Finding[]; testId?: string }) {
  const lines = jsonLines(props.value);
  const placed = placeFindings(lines, props.findings ?? []);
  return (
    <div className="json-view code" data-testid={props.testId}>
      {lines.map((line, i) => {
        const here = placed.get(line.path);
        return (
          <div key={i} className={here ? 'json-line json-line-flagged' : 'json-line'} data-path={line.path}>
            <div className="json-text" style={{ paddingLeft: `${line.depth * 2}ch` }}>
              {line.tokens.map((t, j) => (
                <span key={j} className={`json-${t.kind}`}>
                  {t.text}
                </span>
              ))}
            </div>
            {here?.map((f, j) => (
              <div key={j} className={`json-finding json-finding-${f.level}`} style={{ marginLeft: `${line.depth * 2 + 2}ch` }} data-testid="inline-finding">
                <FindingLevelBadge level={f.level} /> <code>{f.path}</code> {f.message}
              </div>
            ))}
          </div>
        );
      })}
    </div>
  );
}

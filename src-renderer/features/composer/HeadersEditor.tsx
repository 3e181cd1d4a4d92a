import { useState } from 'react';
import { SIGNATURE_HEADER, type HeaderList } from '../../../src-main/shared/model';

/**
 * The request headers as an editable table, in order. The signature header is listed like any
 * other: the signature mode decides what is finally sent (its value is used as is with "keep").
 */
export function HeadersEditor(props: { headers: HeaderList; onChange(headers: HeaderList): void }) {
  const { headers, onChange } = props;
  // A captured request brings many headers; folded, the body and the signature stay in view.
  const [open, setOpen] = useState(headers.length <= 3);
  const put = (i: number, at: 0 | 1, value: string): void => {
    const next = headers.map(([n, v]) => [n, v] as [string, string]);
    next[i]![at] = value;
    onChange(next);
  };
  return (
    <details className="headers-editor" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="headers-editor">
      <summary>
        <span className="label">Headers ({headers.length})</span>{' '}
        {!open && <span className="muted small header-names">{headers.map(([n]) => n).join(', ')}</span>}
      </summary>
      <table className="edit-table">
        <tbody>
          {headers.map(([name, value], i) => (
            <tr key={i} className={name.toLowerCase() === SIGNATURE_HEADER ? 'header-signature' : undefined} data-testid="header-row">
              <td className="col-name">
                <input
                  className="input mono"
                  value={name}
                  spellCheck={false}
                  onChange={(e) => put(i, 0, e.target.value)}
                  aria-label={`Header ${i + 1} name`}
                  data-testid="header-name"
                />
              </td>
              <td>
                <input
                  className="input mono"
                  value={value}
                  spellCheck={false}
                  onChange={(e) => put(i, 1, e.target.value)}
                  aria-label={`Header ${i + 1} value`}
                  data-testid="header-value"
                />
              </td>
              <td className="col-action">
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => onChange(headers.filter((_, j) => j !== i))}
                  aria-label={`Remove header ${name}`}
                  title="Remove"
                >
                  ✕
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="btn btn-small btn-ghost" onClick={() => onChange([...headers, ['', '']])} data-testid="header-add">
        + Add header
      </button>
      <p className="form-hint">Host and Content-Length are set by the desk for the exact bytes sent.</p>
    </details>
  );
}

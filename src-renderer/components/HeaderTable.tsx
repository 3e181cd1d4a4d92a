import { SIGNATURE_HEADER, type HeaderList } from '../../src-main/shared/model';

/** Headers in the order they were sent, names as sent; the signature header stands out. */
export function HeaderTable(props: { headers: HeaderList; testId?: string }) {
  if (props.headers.length === 0) return <p className="muted">No headers.</p>;
  return (
    <table className="header-table" data-testid={props.testId}>
      <tbody>
        {props.headers.map(([name, value], i) => (
          <tr key={i} className={name.toLowerCase() === SIGNATURE_HEADER ? 'header-signature' : undefined}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

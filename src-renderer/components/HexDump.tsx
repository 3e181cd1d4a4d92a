import { hexDumpLines } from './hex';

export function HexDump(props: { bytes: Uint8Array; testId?: string }) {
  return (
    <pre className="code hex-dump" data-testid={props.testId}>
      {hexDumpLines(props.bytes).join('\n')}
    </pre>
  );
}

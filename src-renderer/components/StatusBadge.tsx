import { Badge, type Tone } from './Badge';

/** An HTTP response status, or why there is none. */
export function StatusBadge(props: { status: number | null; error: string | null; testId?: string }) {
  if (props.status === null) {
    if (props.error) {
      return (
        <Badge tone="red" title={props.error} testId={props.testId}>
          failed
        </Badge>
      );
    }
    return (
      <Badge tone="grey" title="Waiting for the response" testId={props.testId}>
        …
      </Badge>
    );
  }
  const tone: Tone = props.status < 300 ? 'green' : props.status < 500 ? 'amber' : 'red';
  return (
    <Badge tone={tone} testId={props.testId}>
      {props.status}
    </Badge>
  );
}

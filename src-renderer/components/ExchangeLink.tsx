import { useOpenExchange } from './use-open-exchange';

/** "#12": opens exchange 12 in the detail pane of the screen that shows it. */
export function ExchangeLink(props: { id: number; testId: string; className?: string; title?: string }) {
  const open = useOpenExchange();
  return (
    <button
      type="button"
      className={props.className ?? 'link'}
      onClick={() => open(props.id)}
      title={props.title}
      data-testid={props.testId}
      data-id={props.id}
    >
      #{props.id}
    </button>
  );
}

import { ExportHarButton } from './ExportHarButton';
import { fileNameOf } from './download';
import { TicketBundleButton } from './TicketBundleButton';

/** What a deposit's timeline can be shared as: a Markdown ticket bundle, or a HAR of its exchanges. */
export function DepositExportActions(props: { depositId: string }) {
  return (
    <span className="export-actions" data-testid="deposit-export">
      <TicketBundleButton depositId={props.depositId} />
      <ExportHarButton query={{ depositId: props.depositId }} fileName={fileNameOf('deposit', props.depositId)} testId="export-deposit-har" />
    </span>
  );
}

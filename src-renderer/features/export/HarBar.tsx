import type { ReactNode } from 'react';
import { useDesk } from '../../store';
import { toQuery } from '../../store/captures-slice';
import { ExportHarButton } from './ExportHarButton';
import { fileNameOf, stamp } from './download';
import { ImportHarButton } from './ImportHarButton';

/** HAR in and out for the capture list: export what the filters show, import a file as captures (and the list's other actions after). */
export function HarBar(props: { children?: ReactNode }) {
  const filters = useDesk((s) => s.filters);
  return (
    <div className="har-bar" data-testid="har-bar">
      <ExportHarButton query={toQuery(filters)} fileName={fileNameOf('captures', stamp())} label="Export HAR of this list" testId="export-list-har" />
      <ImportHarButton />
      {props.children}
    </div>
  );
}

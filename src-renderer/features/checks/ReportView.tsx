import { useState } from 'react';
import type { CheckReport, CheckReportFormat, DeskError } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { Badge } from '../../components/Badge';
import { writeClipboard } from '../../components/clipboard';
import { formatDateTime } from '../../components/format';
import { ExportHarButton } from '../export/ExportHarButton';
import { downloadText, fileNameOf } from '../export/download';
import { CheckRow } from './CheckRow';

const FILES: Record<CheckReportFormat, { ext: string; mime: string }> = {
  markdown: { ext: 'md', mime: 'text/markdown' },
  json: { ext: 'json', mime: 'application/json' },
  junit: { ext: 'junit.xml', mime: 'application/xml' },
  html: { ext: 'html', mime: 'text/html' },
};

/** Export as Markdown, JSON, JUnit XML or a self-contained HTML page: downloaded as a file, or copied for a ticket. */
function ReportExports(props: { report: CheckReport }) {
  const [error, setError] = useState<DeskError | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const base = fileNameOf('conformance', String(props.report.id), props.report.at.slice(0, 10));
  const fetchText = async (format: CheckReportFormat): Promise<string | null> => {
    setError(null);
    const r = await desk.exportCheckReport(props.report.id, format);
    if (r.ok) return r.value;
    setError(r.error);
    return null;
  };
  const download = async (format: CheckReportFormat): Promise<void> => {
    const text = await fetchText(format);
    if (text !== null) downloadText(`${base}.${FILES[format].ext}`, text, FILES[format].mime);
  };
  const copy = async (): Promise<void> => {
    const text = await fetchText('markdown');
    if (text === null) return;
    setCopied((await writeClipboard(text)) ? 'Markdown copied ✓' : 'The clipboard is blocked here: download the .md instead.');
  };
  return (
    <div className="report-exports">
      <button type="button" className="btn btn-small" onClick={() => void download('markdown')} data-testid="report-download-md">
        Download .md
      </button>
      <button type="button" className="btn btn-small" onClick={() => void download('json')} data-testid="report-download-json">
        Download .json
      </button>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => void download('junit')}
        data-testid="report-download-junit"
        title="JUnit XML, one testcase per check, for a CI"
      >
        Download JUnit
      </button>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => void download('html')}
        data-testid="report-download-html"
        title="One page that opens without the desk"
      >
        Download .html
      </button>
      <button type="button" className="btn btn-small" onClick={() => void copy()} data-testid="report-copy-md">
        {copied ?? 'Copy Markdown'}
      </button>
      <ExportHarButton query={{ reportId: props.report.id }} fileName={base} label="Export HAR" testId="report-export-har" />
      {error && <span className="text-error small">{error.message}</span>}
    </div>
  );
}

/** A conformance report: where and when, the counts, then every check with its evidence. */
export function ReportView(props: { report: CheckReport }) {
  const { report } = props;
  return (
    <section className="card report" data-testid="check-report" data-report={report.id}>
      <div className="card-head">
        <h3 className="card-title">Report #{report.id}</h3>
        <span className="spacer" />
        {/* Keyed: a copy note or an export error belongs to the report it was made for. */}
        <ReportExports key={report.id} report={report} />
      </div>
      <p className="report-meta">
        <code data-testid="report-target">{report.target}</code> · user <code>{report.userId}</code> · {formatDateTime(report.at)}
      </p>
      {(report.moneySource || report.budget) && (
        <p className="muted small" data-testid="report-money">
          {report.moneySource && <>Money read from: {report.moneySource}</>}
          {report.moneySource && report.budget && ' · '}
          {report.budget}
        </p>
      )}
      {report.headline && (
        <p className="text-error" data-testid="report-headline">
          {report.headline}
        </p>
      )}
      <div className="report-counts" data-testid="report-counts">
        <Badge tone="green" testId="report-passed">
          {report.passed} passed
        </Badge>
        <Badge tone={report.failed > 0 ? 'red' : 'grey'} testId="report-failed">
          {report.failed} failed
        </Badge>
        {(report.blocked ?? 0) > 0 && (
          <Badge tone="amber" testId="report-blocked" title="A step these checks depend on did not get the answer it needs: they say nothing either way">
            {report.blocked} blocked
          </Badge>
        )}
        <Badge tone="grey">{report.notObservable} not observable</Badge>
        {(report.inconclusive ?? 0) > 0 && (
          <Badge tone="amber" testId="report-inconclusive" title="Refused, and the plain control was refused too: neither passed nor failed">
            {report.inconclusive} inconclusive
          </Badge>
        )}
        {(report.warnings ?? 0) > 0 && (
          <Badge tone="amber" testId="report-warnings" title="The desk's advice, not the spec's rule: never fails the run">
            {report.warnings} {report.warnings === 1 ? 'warning' : 'warnings'}
          </Badge>
        )}
        {report.failed === 0 && (report.blocked ?? 0) === 0 ? (
          <span className="ok-text">Every observable check passed.</span>
        ) : (
          <span className="text-error">The operator departs from the spec where marked ✗ below; checks marked blocked could not be judged.</span>
        )}
      </div>
      <ol className="check-list">
        {report.checks.map((c) => (
          <CheckRow key={c.id} check={c} />
        ))}
      </ol>
    </section>
  );
}

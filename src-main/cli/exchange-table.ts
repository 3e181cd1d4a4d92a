// Exchanges as a terminal table: one line per exchange, the columns aligned by cli-table3. Lists are
// written page by page (memory stays flat for any --limit), so the widths are measured once, on the
// first page, and every later page is laid out with the same widths: a longer cell is cut with "…"
// (whole in --json), the columns stay aligned and each row stays one line however many pages follow.
import Table from 'cli-table3';
import type { ExchangeSummary, ProfileView } from '../shared/model';
import { formatMoney, writesMinorUnits } from '../shared/money';
import { answerNote, statusWords } from './answer-words';

/** What a cell needs beyond its row: whether the row's profile writes amounts in minor units. */
export interface TableContext {
  minorUnits(x: ExchangeSummary): boolean;
}

interface Column {
  head: string;
  cell(x: ExchangeSummary, ctx: TableContext): string;
  /** Width of the text, at least (fixed-width values, and room for ids that grow on later pages). */
  min: number;
  /** Width of the text, at most: beyond it a cell is cut. */
  max: number;
  align?: 'right';
}

const GAP = 2;

const NO_BORDERS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};

const kindOf = (x: ExchangeSummary): string => (x.kind === 'results' && x.result ? `results:${x.result}` : x.kind);
/** As the UI's detail writes it: "5.00 USD (500 minor units)" on an integer profile, "5.5 USD" on a decimal one. */
const amountOf = (x: ExchangeSummary, ctx: TableContext): string => (x.amount !== null ? formatMoney(x.amount, x.currency, ctx.minorUnits(x), 'detail') : '');

export const EXCHANGE_COLUMNS = {
  id: { head: 'id', cell: (x) => String(x.id), min: 8, max: 12, align: 'right' },
  at: { head: 'at', cell: (x) => x.at, min: 24, max: 24 },
  profile: { head: 'profile', cell: (x) => x.profile ?? '(none)', min: 7, max: 24 },
  direction: { head: 'dir', cell: (x) => x.direction, min: 8, max: 8 },
  kind: { head: 'kind', cell: kindOf, min: 14, max: 24 },
  verdict: { head: 'verdict', cell: (x) => x.signature.verdict ?? '-', min: 9, max: 9 },
  status: { head: 'status', cell: statusWords, min: 6, max: 8 },
  depositId: { head: 'depositId', cell: (x) => x.depositId ?? '-', min: 9, max: 40 },
  userId: { head: 'userId', cell: (x) => x.userId ?? '-', min: 6, max: 40 },
  amount: { head: 'amount', cell: amountOf, min: 6, max: 36 },
  /** Who answered when it was not the operator, or the operator's acceptance of a bad signature. */
  note: { head: 'note', cell: answerNote, min: 4, max: 100 },
} satisfies Record<string, Column>;

export type ExchangeColumn = keyof typeof EXCHANGE_COLUMNS;

export interface ExchangeTable {
  /** The header line. */
  readonly header: string;
  /** The lines of these exchanges, laid out like every other page of this table. */
  rows(items: readonly ExchangeSummary[]): string;
}

/** A table whose widths fit the first page (within each column's bounds). */
export function exchangeTable(firstPage: readonly ExchangeSummary[], names: readonly ExchangeColumn[], ctx: TableContext): ExchangeTable {
  const columns: Column[] = names.map((n) => EXCHANGE_COLUMNS[n]);
  const widths = columns.map((c) => Math.min(c.max, Math.max(c.min, c.head.length, ...firstPage.map((x) => c.cell(x, ctx).length))));
  const render = (cells: string[][]): string => {
    const table = new Table({
      chars: NO_BORDERS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': GAP, compact: true },
      colWidths: widths.map((w) => w + GAP),
      colAligns: columns.map((c) => c.align ?? 'left'),
      wordWrap: false,
      truncate: '…',
    });
    table.push(...cells);
    return `${table
      .toString()
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')}\n`;
  };
  return {
    header: render([columns.map((c) => c.head)]),
    rows: (items) => (items.length === 0 ? '' : render(items.map((x) => columns.map((c) => c.cell(x, ctx))))),
  };
}

/** Amounts by each row's own profile (the active one's for an unassigned row); minor units where the profile is unknown. */
export function amountsOfProfiles(profiles: readonly Pick<ProfileView, 'name' | 'active' | 'amounts'>[]): TableContext {
  const active = profiles.find((p) => p.active);
  return { minorUnits: (x) => writesMinorUnits((x.profile === null ? active : profiles.find((p) => p.name === x.profile))?.amounts) };
}

import { useEffect, useState } from 'react';
import { RESULT_VALUES, VERDICTS, type ExchangeKind, type Verdict } from '../../../src-main/shared/model';
import { MAX_SEARCH_CHARS, searchProblem } from '../../../src-main/shared/search-text';
import { NO_FILTERS, filtersActive, useDesk } from '../../store';

const KINDS: ExchangeKind[] = ['pay', 'results', 'token', 'other'];
const SEARCH_DELAY_MS = 250;

/** Kind, result, verdict, a search over everything stored (or an id prefix, under three characters), and whether outbound rows show. */
export function CaptureFilters() {
  const filters = useDesk((s) => s.filters);
  const setFilters = useDesk((s) => s.setFilters);
  const [search, setSearch] = useState(filters.search);

  // Filters cleared elsewhere (the empty state's button) clear the box too.
  useEffect(() => setSearch(filters.search), [filters.search]);

  // A search the desk would refuse (a pasted control character; maxLength bounds the length) is said
  // here and never sent.
  const problem = searchProblem(search);

  // Typing filters after a pause, not on every key: each change is a database query.
  useEffect(() => {
    if (search === filters.search || problem) return;
    const t = setTimeout(() => setFilters({ search }), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [search, filters.search, problem, setFilters]);

  const active = filtersActive(filters);

  return (
    <div className="filters" data-testid="capture-filters">
      <input
        type="search"
        className="input search"
        placeholder="Search ids, paths, headers, bodies…"
        title="Text anywhere in the request and answer: path, headers, bodies, any part of an id (3 characters or more; shorter: a depositId or userId prefix)"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !problem) setFilters({ search });
        }}
        maxLength={MAX_SEARCH_CHARS}
        aria-label="Search captures"
        aria-invalid={problem !== null}
        data-testid="filter-search"
      />
      {problem && (
        <span className="search-problem" role="alert" data-testid="filter-search-problem">
          {problem[0]!.toUpperCase() + problem.slice(1)}: not searched.
        </span>
      )}
      <select
        className="input"
        value={filters.kind}
        onChange={(e) => setFilters({ kind: e.target.value as ExchangeKind | '' })}
        aria-label="Kind"
        data-testid="filter-kind"
      >
        <option value="">All kinds</option>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </select>
      <select className="input" value={filters.result} onChange={(e) => setFilters({ result: e.target.value })} aria-label="Result" data-testid="filter-result">
        <option value="">Any result</option>
        {RESULT_VALUES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <select
        className="input"
        value={filters.verdict}
        onChange={(e) => setFilters({ verdict: e.target.value as Verdict | '' })}
        aria-label="Signature verdict"
        data-testid="filter-verdict"
      >
        <option value="">Any signature</option>
        {VERDICTS.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
      <label className="checkbox" title="Also show the desk's own requests: replays, sends, checks, token requests">
        <input
          type="checkbox"
          checked={filters.direction === 'all'}
          onChange={(e) => setFilters({ direction: e.target.checked ? 'all' : 'inbound' })}
          data-testid="filter-outbound"
        />
        Outbound too
      </label>
      <label className="checkbox" title="Show every profile's captures (and unassigned ones), not only the active profile's">
        <input
          type="checkbox"
          checked={filters.allProfiles}
          onChange={(e) => setFilters({ allProfiles: e.target.checked })}
          data-testid="filter-all-profiles"
        />
        All profiles
      </label>
      {active && (
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => {
            setSearch('');
            setFilters(NO_FILTERS);
          }}
          data-testid="filter-clear"
        >
          Clear filters
        </button>
      )}
    </div>
  );
}

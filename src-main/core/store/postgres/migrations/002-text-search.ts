// Search over the text of a team's captures, the same search SQLite's exchange_text gives (migrations 009
// and 012 there): a substring of an exchange's request (method, path, query, target, header lines, the
// first 64 KiB of the body, the ids) or of its answer (status, header lines, body, the error), ASCII
// letters in either case.
//
// - The text is made by SQL functions, used both by the background indexer (text-indexer.ts) to fill
//   exchange_text and by a search to test the rows not indexed yet: one definition, so a row is found
//   the same way before and after it is indexed. Building it in the database keeps the bodies there.
// - exchange_text holds the request's text and, in a column of its own, the answer's (NULL until it is
//   indexed), as SQLite's two documents an exchange: a search never matches across the two.
// - A body is read as UTF-8; where it is not valid UTF-8 (or holds NUL, which PostgreSQL's text cannot),
//   each ill-formed byte reads as U+FFFD and the valid sequences around it as themselves. convert_from
//   refuses such bytes, so the function tries it first (the common case) and falls back to decoding the
//   valid runs one by one.
// - Header lists are JSON text; an escaped NUL (\u0000), which PostgreSQL's json refuses to unescape,
//   reads as U+FFFD, as a NUL stored in a text column does (pg-text.ts).
// - exchange_text_unanswered lists rows indexed before their answer came (as SQLite's), and
//   exchange_text_gaps the ids the indexer passed while no row had them: several proxies draw ids from
//   one sequence and commit in their own time, so an id below one already committed may still commit.
//   A search tests both lists' rows directly; the indexer indexes a gap's row when it shows and forgets a
//   gap once no write can still be holding it (text-indexer.ts).
const T = 'text COLLATE "C"';

/** Bytes of a body the text reads (as SQLite's INDEXED_BODY_BYTES). */
const BODY_BYTES = 65_536;

// One valid UTF-8 sequence, over bytes read as LATIN1 characters (U+0001..U+00FF): RFC 3629's table,
// which is what convert_from accepts (no overlongs, no surrogates, nothing past U+10FFFF).
const UTF8_SEQUENCE = [
  String.raw`[\u0001-\u007f]`,
  String.raw`[\u00c2-\u00df][\u0080-\u00bf]`,
  String.raw`\u00e0[\u00a0-\u00bf][\u0080-\u00bf]`,
  String.raw`[\u00e1-\u00ec\u00ee\u00ef][\u0080-\u00bf]{2}`,
  String.raw`\u00ed[\u0080-\u009f][\u0080-\u00bf]`,
  String.raw`\u00f0[\u0090-\u00bf][\u0080-\u00bf]{2}`,
  String.raw`[\u00f1-\u00f3][\u0080-\u00bf]{3}`,
  String.raw`\u00f4[\u0080-\u008f][\u0080-\u00bf]{2}`,
].join('|');

export const SQL = String.raw`
ALTER TABLE exchange_text ADD COLUMN answer ${T};

CREATE TABLE exchange_text_unanswered (
  exchange_id bigint PRIMARY KEY REFERENCES exchanges (id) ON DELETE CASCADE
);

CREATE TABLE exchange_text_gaps (
  id    bigint PRIMARY KEY,
  since timestamptz NOT NULL DEFAULT now()
);

-- Bytes as text: UTF-8 where valid, U+FFFD for each ill-formed byte and each NUL.
CREATE FUNCTION wager_desk_utf8(b bytea) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  latin text;
BEGIN
  RETURN convert_from(b, 'UTF8');
EXCEPTION WHEN character_not_in_repertoire THEN
  -- NULs become U+FFFD's bytes. The escape encoding writes a NUL as \000 and doubles a backslash;
  -- with the doubled backslashes set aside (as a character that encoding never writes), every \000
  -- left is a NUL.
  latin := convert_from(decode(replace(replace(replace(encode(b, 'escape'), '\\', 'Ā'), '\000', '\357\277\275'), 'Ā', '\\'), 'escape'), 'LATIN1');
  -- Each byte is now one character: the runs of valid sequences are decoded, every other byte is U+FFFD.
  RETURN coalesce((
    SELECT string_agg(CASE WHEN m[1] IS NULL THEN U&'\FFFD' ELSE convert_from(convert_to(m[1], 'LATIN1'), 'UTF8') END, '' ORDER BY n)
      FROM regexp_matches(latin, '((?:${UTF8_SEQUENCE})+)|[\u0080-\u00ff]', 'g') WITH ORDINALITY AS r(m, n)), '');
END $$;

-- A header list (JSON [[name, value], ...]) as "name: value" lines, as SQLite's json_each reads it. A list
-- written without a backslash (no escape in any string, the common case) holds no quote inside a string,
-- so its lines are cut from the text directly: about half the cost of parsing the JSON.
CREATE FUNCTION wager_desk_header_lines(h text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN h ~ '^\[\["[^"\\]*","[^"\\]*"\](,\["[^"\\]*","[^"\\]*"\])*\]$'
      THEN replace(replace(substr(h, 4, length(h) - 6), '"],["', E'\n'), '","', ': ')
    ELSE (SELECT string_agg((p ->> 0) || ': ' || (p ->> 1), E'\n' ORDER BY n)
      FROM json_array_elements(
        (CASE WHEN strpos(h, '\u0000') > 0 THEN regexp_replace(h, '(?<!\\)((?:\\\\)*)\\u0000', '\1\\ufffd', 'g') ELSE h END)::json
      ) WITH ORDINALITY AS a(p, n))
  END
$$;

-- An exchange's request and answer as searched (SQLite: requestText and answerText of migration 009).
CREATE FUNCTION wager_desk_request_text(e exchanges) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT e.method || ' ' || e.path || CASE WHEN e.query = '' THEN '' ELSE '?' || e.query END || E'\n' ||
    coalesce(e.target, '') || E'\n' ||
    coalesce(wager_desk_header_lines(e.req_headers), '') || E'\n' ||
    wager_desk_utf8(substring(e.req_body FROM 1 FOR ${BODY_BYTES})) || E'\n' ||
    concat_ws(' ', e.deposit_id, e.user_id, e.game_id, e.tournament_id)
$$;

CREATE FUNCTION wager_desk_answer_text(e exchanges) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(e.res_status::text, '') || E'\n' ||
    coalesce(wager_desk_header_lines(e.res_headers), '') || E'\n' ||
    coalesce(wager_desk_utf8(substring(e.res_body FROM 1 FOR ${BODY_BYTES})), '') || E'\n' ||
    coalesce(e.error, '')
$$;
`;

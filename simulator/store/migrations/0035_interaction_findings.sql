-- What the sandbox accepted of a request beyond the specification, as
-- production does (issue 38): unknown members, a trailing slash, token
-- parameters in the query string. A JSON array of {kind, field, detail};
-- '' for none, which is nearly every request.
ALTER TABLE interactions ADD COLUMN findings TEXT NOT NULL DEFAULT '';

-- Issue 19, the request path: indexes no statement reads, each an extra
-- B-tree write on every request (interactions) or event. The listing
-- of a company's events and requests now names its company and walks
-- events_company / interactions_company; a filter by CNPJ (the
-- operator's) or by app narrows those rows, or the operator's walk by
-- sequence.
DROP INDEX IF EXISTS events_cnpj;
DROP INDEX IF EXISTS interactions_app;

-- The path a request was sent to, when the router knew it by another: an
-- alias of an insurer API (/apiseguradora/v3/…, /api/{version}/…) or
-- another case (issue 16). path keeps the one the router knows, so
-- filters, faults and the homologation checks see one path per operation.
ALTER TABLE interactions ADD COLUMN sent_path TEXT NOT NULL DEFAULT '';

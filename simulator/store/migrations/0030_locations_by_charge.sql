-- Issue 19, the request path: retention finds a charge's location by the
-- charge's loc_id (pix.deleteCharges), so no statement reads this index,
-- and every location written, linked or released wrote it.
DROP INDEX IF EXISTS pix_locs_cob;

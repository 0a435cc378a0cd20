-- The origins an app's pages embed the insurer's widgets from (portal:
-- PUT /portal/apps/{id}/widget-origins), space-separated: a widget framed
-- for the app is framed by them only (Content-Security-Policy
-- frame-ancestors), takes its token from them and posts its results to
-- them.
ALTER TABLE apps ADD COLUMN widget_origins TEXT NOT NULL DEFAULT '';

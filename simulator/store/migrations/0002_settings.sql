-- Sandbox-wide settings that must survive a restart, such as where the
-- sandbox clock stood.
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

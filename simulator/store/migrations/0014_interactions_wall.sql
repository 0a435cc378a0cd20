-- The wall-clock instant of each recorded request, beside the sandbox
-- clock's: a homologation check measures the partner's pauses (backoff,
-- Retry-After) in real time even when the sandbox clock is frozen.
ALTER TABLE interactions ADD COLUMN wall_at INTEGER NOT NULL DEFAULT 0;

// Package homologation runs the homologation suite for an app, inside the
// sandbox, and gates publishing on those runs (onboarding step 7). The
// sandbox records only runs it made itself: a report a client posts could
// say anything, so none can open the gate.
package homologation

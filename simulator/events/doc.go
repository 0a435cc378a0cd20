// Package events is how the sandbox tells partners what happened: one
// envelope for every event, written in the transaction of the change that
// causes it (an outbox), delivered to webhooks by a dispatcher that signs,
// retries on the company's clock, keeps a log and refuses targets outside
// its guard, and streamed to websocket clients by an in-memory hub. Every
// domain emits through it (mostly by package statemachine); the control
// API reads and replays its deliveries.
package events

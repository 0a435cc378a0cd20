// Package statemachine declares the life of a resource as data (state →
// allowed next states, and the event each move emits) and applies moves:
// one function validates a move, stores it, emits its event and tells the
// observers (the scenario engine) so that they can schedule what comes next.
// Handlers, scenario steps and control actions all move resources through it.
package statemachine

package redact

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler wraps a slog handler so that no line it writes carries a
// secret: the message and every attribute that is text (strings, errors,
// anything printed) pass through Text first. A request's URL, a webhook's
// address with a token in its query, an error quoting a form: whatever a
// log line says, wherever it comes from.
func Handler(h slog.Handler) slog.Handler { return handler{h} }

type handler struct{ next slog.Handler }

func (h handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	// Most lines (every request's) hold nothing to redact: they go on as
	// they came, without a copy of the record.
	clean := Text(r.Message) == r.Message
	if clean {
		r.Attrs(func(a slog.Attr) bool {
			clean = !holdsSecret(a)
			return clean
		})
	}
	if clean {
		return h.next.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, Text(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h handler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = attr(a)
	}
	return handler{h.next.WithAttrs(clean)}
}

func (h handler) WithGroup(name string) slog.Handler { return handler{h.next.WithGroup(name)} }

// holdsSecret reports whether attr would change a.
func holdsSecret(a slog.Attr) bool {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return Text(v.String()) != v.String()
	case slog.KindGroup:
		for _, g := range v.Group() {
			if holdsSecret(g) {
				return true
			}
		}
	case slog.KindAny:
		s := fmt.Sprint(v.Any())
		return Text(s) != s
	}
	return false
}

// attr is a with its text redacted; numbers, times, durations and the
// like are kept as they are.
func attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Text(v.String()))
	case slog.KindGroup:
		as := v.Group()
		clean := make([]any, len(as))
		for i, g := range as {
			clean[i] = attr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		// Errors and values are printed by the handler anyway; only one
		// that prints a secret becomes its redacted text.
		s := fmt.Sprint(v.Any())
		if clean := Text(s); clean != s {
			return slog.String(a.Key, clean)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// Package duedate computes what a Pix charge with a due date (cobv) accepts
// and owes on a given payment date: business days, the payable window
// (calendario.dataDeVencimento + validadeAposVencimento) and the final value
// from valor.original, multa, juros, abatimento and desconto.
//
// Dates are civil dates ([Date]), never instants: the spec's dates carry no
// time zone, and a payment belongs to the payer's calendar day, which the
// caller determines (for example with [Of] on a time in America/Sao_Paulo).
//
// Money is int64 cents and percentages are int64 hundredths of a percent,
// both read with money.Parse from the API's "\d{1,10}\.\d{2}" strings, so
// no float ever touches an amount. Every component is computed exactly with
// integers and rounded half up to the cent once, at the end of that
// component.
//
// # Decisions where the spec is silent
//
//   - The adjusted due date is NextBusinessDay(dataDeVencimento). The spec
//     says multa, juros and desconto follow it, so paying on the adjusted
//     date is on time, and "late" means paying after it.
//   - Days late are counted from the adjusted due date: calendar days for
//     juros modalidades 1–4, business days in (adjusted, pay] for 5–8.
//   - Multa is charged once as soon as the payment is late.
//   - Juros are simple, never compounded, and never charged on the multa.
//     Following the Manual de Padrões para Iniciação do Pix (equation
//     Vj = (Vo − Va) × (Ij/100)/n × Dα), the rate is applied to
//     original − abatimento, with n = 1, 30 or 360 for a rate per day, month
//     or year in calendar days and n = 1, 21 or 252 in business days. The
//     21/252 pair was confirmed by the BCB in bacen/pix-api issue #205. For
//     calendar days the month is 30 (issue #607 quotes the manual with n = 30)
//     and the year is taken as 360, the commercial year, so that 12 % a year
//     is exactly 1 % a month, as 252 = 12 × 21 makes it in business days.
//   - Percentages of multa and desconto are also taken on original −
//     abatimento: an abatimento reduces the debt itself, so everything
//     proportional to the debt shrinks with it.
//   - Abatimento always applies, on time or late.
//   - Desconto applies only when paying on or before the adjusted due date.
//     With fixed dates (modalidades 1 and 2) the applicable entry is the one
//     with the earliest date on or after the payment date; an entry dated on
//     dataDeVencimento itself follows the due date to the adjusted date, since
//     the spec extends every field that refers to the due date. Per-day
//     discounts (3–6) count days of anticipation up to the adjusted due
//     date: calendar days, or business days in (pay, adjusted].
//   - Abatimento is capped at original and desconto at original − abatimento,
//     so the final value is never negative.
package duedate

// Package benefit is the benefit cycle of the insurer's partner API (SPEC
// area A; insurance SUMMARY §3.8, §5.2, §5.6, §6): a benefit notice
// against an enrollment of the customer cycle, its regulation driven by
// the benefit's scenario (default: scenarios/beneficio-padrao.yaml),
// pendings of documents the partner answers, reopening of a refusal, and
// payment split among the recipients.
package benefit

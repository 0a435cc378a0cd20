// Package sale is the sale cycle of the insurer's partner API (SPEC area
// A; insurance SUMMARY for the evidenced names): the offers a company may
// sell (modeloproposta) and the portal's grants of them, questionnaires
// and their answers, simulation, signature tokens and the outbox that
// "sends" them, card pre-authorisation, proposals with their reserved
// numbers, analysis, pendings, timeline and cancellation, and their
// implantation, which opens the enrollments of the customer cycle through
// Enrollments.
package sale

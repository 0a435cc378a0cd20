// Package catalog is the insurer sandbox's catalogue: the offers
// (ModeloProposta) of the fake MAG partner API, who may sell them, the
// questionnaires behind them, and the pricing of POST /simulacao. The
// catalogue is offers.yaml, embedded and validated by Load.
//
// # Pricing model
//
// Price is deterministic: the same offer, profile, capital and
// periodicity always give the same quote, to the cent. It is a toy model
// shaped like a real tariff, not MAG's, and it is priced the way the
// insurer's clients compute a premium (insurance CLIENTS §4): each
// coverage of the simulation answer carries a base capital (capitalBase)
// and its premium (premioBase), and the premium of a capital is
//
//	premio = capital ÷ capitalBase × premioBase
//
// rounded half-up to cents; a fixed-value coverage costs premioBase
// whatever the capital. Nothing is added on top (the clients add
// nothing). For each coverage of each product:
//
//	age         = full years between the birth date and the company's now
//	              (a 29 February birthday is reached on 1 March)
//	ageFactor   = exp(0.085 × (age − 30))        1.00 at 30, ≈2.34 at 40,
//	                                             ≈12.8 at 60, ≈0.36 at 18
//	sexFactor   = 1.00 male (sexoId 1), 0.85 female (sexoId 2)
//	smoker      = 1.00, or 1.50 for a smoker (Profile.Fumante)
//	profession  = by the CBO major group (first digit): 0 armed forces,
//	              police and military firefighters 1.50; 6 agriculture and
//	              fishing 1.15; 7 and 8 industrial production 1.30;
//	              9 maintenance and repair 1.15; every other group 1.00
//	ufFactor    = 1.05 in AM, PA and RJ; 1.00 elsewhere
//	monthly     = taxaPor1000 × ageFactor × sexFactor × smoker
//	              × profession × ufFactor       (per 1,000 of capital a
//	              month, rounded to 8 decimals, as MAG's premioBase)
//	premioBase  = monthly × months × discount, rounded to 8 decimals: the
//	              premium of capitalBase for the simulation's periodicity
//	              months: 30 → 1, 90 → 3, 180 → 6, 360 → 12
//	              discount: 0.95 for 360 (annual), else 1
//	capitalBase = 1,000
//
// taxaPor1000 comes from offers.yaml: the monthly rate for a 30-year-old
// non-smoking man in a base-class profession. A fixed-value coverage
// (capitalFixo, such as funeral assistance) insures its valorFixo: its
// capitalBase is that capital, its monthly premium valorFixo ÷ 1,000 ×
// the rate above plus the coverage's custoFixo, and the answer's custoFixo
// is its premium (the 2019 client shows custoFixo as the price of a
// coverage whose capital cannot change). A contribution coverage (tipo 2,
// pension plans) takes the capital as the monthly contribution:
// premioBase is taxaPor1000 with no factor, and the annual discount does
// not apply.
//
// # Without a capital
//
// Neither client sends a capital in a simulation: without one (absent or
// 0), every coverage is priced at its base. The capital limits are not
// checked (there is no capital to check), limite still says the highest
// capital the profile may have, and capital and premio show the smallest
// capital the coverage sells (the larger of capitalBase and
// valorMinimoCapitalContratacao, where the 2025 client starts) and its
// premium. The ticket minimum is checked only when a capital is given.
//
// # Limits
//
// Instead of a price, a coverage gets a Limit when the age is outside the
// product's idadeMinima..idadeMaxima or the coverage's
// idadeEntrada..idadeSaida; when the capital is below
// valorMinimoCapitalContratacao or above valorLimiteCapitalReferencia; or
// when it is above an acceptance-policy limit for one of the coverage's
// causas: multiploRenda × annual income (12 × the monthly renda) for the
// age band, the age band's maximum, or the profession's maximum. A
// profession in profissoesRecusadas or a UF in ufsRecusadas refuses the
// whole product. A product whose mandatory coverage is refused is left out;
// an optional coverage is simply dropped. Each quoted coverage reports as
// limite the lowest of those maxima for the profile.
//
// Finally, when the sum of the quoted monthly premiums is below the
// offer's ticketMinimo, Price adds a Limit too but still returns the
// quote, so the partner can see how far below it is.
package catalog

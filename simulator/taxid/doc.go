// Package taxid validates Brazilian tax ids: CPF (persons) and CNPJ
// (companies), including the alphanumeric CNPJ that the Receita Federal
// issues from July 2026 (IN RFB 2.229/2024).
package taxid

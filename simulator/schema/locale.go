package schema

import "github.com/xeipuuv/gojsonschema"

// portuguese words gojsonschema's validation errors in Portuguese, the
// language of every error detail the sandbox answers; the messages about
// schemas themselves (which only the sandbox's authors meet) stay in
// gojsonschema's English.
type portuguese struct{ gojsonschema.DefaultLocale }

func init() { gojsonschema.Locale = portuguese{} }

func (portuguese) False() string    { return "o valor nunca é aceito" }
func (portuguese) Required() string { return `{{.property}} é obrigatório` }
func (portuguese) InvalidType() string {
	return `Tipo inválido. Esperado: {{.expected}}, recebido: {{.given}}`
}
func (portuguese) NumberAnyOf() string { return `Deve seguir ao menos um dos esquemas (anyOf)` }
func (portuguese) NumberOneOf() string { return `Deve seguir exatamente um dos esquemas (oneOf)` }
func (portuguese) NumberAllOf() string { return `Deve seguir todos os esquemas (allOf)` }
func (portuguese) NumberNot() string   { return `Não pode seguir o esquema (not)` }
func (portuguese) MissingDependency() string {
	return `Depende de {{.dependency}}`
}
func (portuguese) Internal() string { return `Erro interno {{.error}}` }
func (portuguese) Const() string    { return `{{.field}} deve ser: {{.allowed}}` }
func (portuguese) Enum() string     { return `{{.field}} deve ser um destes: {{.allowed}}` }
func (portuguese) ArrayNoAdditionalItems() string {
	return `Itens adicionais não são permitidos na lista`
}
func (portuguese) ArrayNotEnoughItems() string {
	return `A lista não tem itens suficientes para a lista posicional do esquema`
}
func (portuguese) ArrayMinItems() string { return `A lista deve ter ao menos {{.min}} itens` }
func (portuguese) ArrayMaxItems() string { return `A lista deve ter no máximo {{.max}} itens` }
func (portuguese) Unique() string        { return `os itens {{.type}} [{{.i}},{{.j}}] devem ser únicos` }
func (portuguese) ArrayContains() string { return `Ao menos um dos itens deve seguir o esquema` }
func (portuguese) ArrayMinProperties() string {
	return `Deve ter ao menos {{.min}} propriedades`
}
func (portuguese) ArrayMaxProperties() string {
	return `Deve ter no máximo {{.max}} propriedades`
}
func (portuguese) AdditionalPropertyNotAllowed() string {
	return `A propriedade adicional {{.property}} não é permitida`
}
func (portuguese) InvalidPropertyPattern() string {
	return `A propriedade "{{.property}}" não segue o padrão {{.pattern}}`
}
func (portuguese) InvalidPropertyName() string {
	return `O nome de propriedade "{{.property}}" não é válido`
}
func (portuguese) StringGTE() string {
	return `O texto deve ter ao menos {{.min}} caracteres`
}
func (portuguese) StringLTE() string {
	return `O texto deve ter no máximo {{.max}} caracteres`
}
func (portuguese) DoesNotMatchPattern() string { return `Não segue o padrão '{{.pattern}}'` }
func (portuguese) DoesNotMatchFormat() string  { return `Não segue o formato '{{.format}}'` }
func (portuguese) MultipleOf() string          { return `Deve ser múltiplo de {{.multiple}}` }
func (portuguese) NumberGTE() string           { return `Deve ser maior ou igual a {{.min}}` }
func (portuguese) NumberGT() string            { return `Deve ser maior que {{.min}}` }
func (portuguese) NumberLTE() string           { return `Deve ser menor ou igual a {{.max}}` }
func (portuguese) NumberLT() string            { return `Deve ser menor que {{.max}}` }
func (portuguese) ErrorFormat() string         { return `{{.field}}: {{.description}}` }
func (portuguese) ParseError() string {
	return `Esperado: {{.expected}}, recebido: JSON inválido`
}
func (portuguese) ConditionThen() string {
	return `Deve seguir o esquema "then", pois seguiu o "if"`
}
func (portuguese) ConditionElse() string {
	return `Deve seguir o esquema "else", pois não seguiu o "if"`
}

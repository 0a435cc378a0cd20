package insurance

import "homologa/simulator/scenario"

// ScenarioRunners registers the runners of the customer and benefit kinds.
func (s *Service) ScenarioRunners(e *scenario.Engine) {
	s.customerRunners(e)
	s.benefitRunners(e)
}

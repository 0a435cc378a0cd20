// Proposal timeline: GET /insurer/v1/proposta/{numero}/timeline (scope
// apiseguradora), kept live by the proposal's events on the stream.
"use strict";
(function () {
  const numero = Widget.param("numeroProposta");
  const status = document.getElementById("status");
  if (!/^\d+$/.test(numero)) {
    Widget.status(status, "Informe o número da proposta no endereço do widget: ?numeroProposta=N.", "error");
    return;
  }
  document.getElementById("titulo").textContent = "Linha do tempo da proposta " + numero;

  // An event says what the timeline will say (followup.go, lifecycle.go),
  // for when the timeline cannot be reloaded.
  function fromEvent(e) {
    const d = e.data || {};
    switch (e.type) {
      case "proposta.status":
      case "proposta.implantada":
        return { data: e.occurredAt, status: d.statusAtual, descricao: "Proposta " + d.statusAtual + (d.motivo ? ": " + d.motivo : "") };
      case "proposta.pendencia":
        return { data: e.occurredAt, status: "PENDENTE", descricao: "Pendência " + d.codigo + ": " + d.descricao };
      case "proposta.pendencia_respondida":
        return { data: e.occurredAt, status: null, descricao: "Pendência respondida" };
    }
    return null;
  }

  Widget.mountTimeline({
    widget: "timeline-proposta",
    what: "propostas (escopo apiseguradora)",
    path: "/insurer/v1/proposta/" + numero + "/timeline",
    follow: { types: "proposta.*", subject: "numeroProposta:" + numero },
    list: document.getElementById("historico"),
    current: document.getElementById("atual"),
    status,
    fromEvent,
    report(current, entries) {
      Widget.post({ event: "timeline", numeroProposta: Number(numero), status: current, registros: entries.length });
    },
  });
})();

// Benefit timeline: GET /benefits/v1/beneficio/{id}/timeline (scope
// apibeneficio), kept live by the benefit's events on the stream.
"use strict";
(function () {
  const id = Widget.param("beneficio") || Widget.param("beneficioId");
  const status = document.getElementById("status");
  if (!/^\d+$/.test(id)) {
    Widget.status(status, "Informe o benefício no endereço do widget: ?beneficio=ID.", "error");
    return;
  }
  document.getElementById("titulo").textContent = "Linha do tempo do benefício " + id;

  // An event says what the timeline will say (beneficio_aviso.go,
  // beneficio_regulacao.go), for when the timeline cannot be reloaded.
  // Beneficio Pago and Recusado come with a Status de Benefício, which is
  // the timeline's entry.
  function fromEvent(e) {
    const d = e.data || {};
    switch (e.type) {
      case "beneficio.avisado":
        return { data: e.occurredAt, status: "AVISADO", descricao: "Aviso de benefício recebido: " + d.causa + " em " + d.dataOcorrencia + " (protocolo " + d.protocolo + ")" };
      case "beneficio.status":
        return { data: e.occurredAt, status: d.statusAtual, descricao: "Benefício " + d.statusAtual + (d.motivo ? ": " + d.motivo : "") };
      case "beneficio.pendencia":
        return { data: e.occurredAt, status: "PENDENTE", descricao: "Pendência " + d.codigo + ": " + d.descricao };
      case "beneficio.pendencia_respondida":
        return { data: e.occurredAt, status: null, descricao: "Pendência respondida" };
    }
    return null;
  }

  Widget.mountTimeline({
    widget: "timeline-beneficio",
    what: "benefícios (escopo apibeneficio)",
    path: "/benefits/v1/beneficio/" + id + "/timeline",
    follow: { types: "beneficio.*", subject: "beneficioId:" + id },
    list: document.getElementById("historico"),
    current: document.getElementById("atual"),
    status,
    fromEvent,
    report(current, entries) {
      Widget.post({ event: "timeline", beneficioId: Number(id), status: current, registros: entries.length });
    },
  });
})();

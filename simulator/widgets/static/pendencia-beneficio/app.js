// Benefit pending: the benefit's open pendings (GET
// /benefits/v1/beneficio/{id}/pendencias?status=ABERTA, scope
// apibeneficio), each answered with text and the documents it asks for
// (PUT /benefits/v1/beneficio/{id}/pendencias/{pendenciaId}); the
// benefit's status and the list follow its events.
"use strict";
(function () {
  const { el } = Widget;
  const id = Widget.param("beneficio") || Widget.param("beneficioId");
  const titulo = document.getElementById("titulo");
  const atual = document.getElementById("atual");
  const status = document.getElementById("status");
  const lista = document.getElementById("lista");
  const vazio = document.getElementById("vazio");
  if (!/^\d+$/.test(id)) {
    Widget.status(status, "Informe o benefício no endereço do widget: ?beneficio=ID.", "error");
    return;
  }
  titulo.textContent = "Pendências do benefício " + id;

  // The document types the insurer names (schemas/insurance/
  // beneficio.pendencia.answer.json), in words.
  const tipos = {
    CERTIDAO_OBITO: "Certidão de óbito", LAUDO_MEDICO: "Laudo médico", BOLETIM_OCORRENCIA: "Boletim de ocorrência",
    DOCUMENTO_IDENTIFICACAO: "Documento de identificação", COMPROVANTE_DESPESAS: "Comprovante de despesas", OUTROS: "Documento",
  };
  const tipoLabel = (t) => tipos[t] || t.replaceAll("_", " ").toLowerCase();

  let benStatus = "", benAt = 0;
  const pendings = Widget.pendingList({ lista, vazio, titulo, status, section: (p) => section(p),
    announce: (abertas) => Widget.post({ event: "pendencias", beneficioId: Number(id), abertas }) });

  // showStatus shows the benefit's status as of at (an RFC 3339 instant):
  // an answer to a read that started before an event is older news than
  // the event, and must not undo it.
  function showStatus(s, at) {
    const t = Date.parse(at) || 0;
    if (!s || t < benAt) return;
    benAt = t;
    if (s === benStatus) return;
    benStatus = s;
    atual.textContent = Widget.label(s);
    atual.parentElement.dataset.status = s;
    Widget.post({ event: "beneficio", beneficioId: Number(id), status: s });
  }

  const reload = Widget.serial(async () => {
    const [b, r] = await Promise.all([
      Widget.call("GET", "/benefits/v1/beneficio/" + id),
      Widget.call("GET", "/benefits/v1/beneficio/" + id + "/pendencias?status=ABERTA"),
    ]);
    if (b.status === 200 && b.body && b.body.Valor) showStatus(b.body.Valor.status, b.body.Valor.dataUltimaAtualizacao);
    if (r.status !== 200 || !r.body || !Array.isArray(r.body.Valor)) {
      Widget.status(status, Widget.problem(r, "benefícios (escopo apibeneficio)"), "error");
      Widget.post({ event: "erro", widget: "pendencia-beneficio", status: r.status, mensagens: Widget.messages(r.body) });
      return;
    }
    pendings.update(r.body.Valor);
  });

  function section(p) {
    const base = "p" + p.id;
    // One file field per document asked for; a pending that names none
    // takes any document.
    const pedidos = Array.isArray(p.documentosExigidos) && p.documentosExigidos.length ? p.documentosExigidos : ["OUTROS"];
    const arquivos = pedidos.map((tipo, i) => [
      el("label", { for: base + "-doc" + i }, tipoLabel(tipo) + (pedidos.length > 1 || tipo !== "OUTROS" ? "" : " (opcional)")),
      el("input", { id: base + "-doc" + i, name: "doc" + i, type: "file", "data-tipo": tipo, "aria-describedby": base + "-dica " + base + "-doc" + i + "-erro" }),
      el("p", { id: base + "-doc" + i + "-erro", class: "field-error", "data-erro-de": "doc" + i }),
    ]);
    const form = el("form", { novalidate: true },
      el("label", { for: base + "-resposta" }, "Resposta"),
      el("textarea", { id: base + "-resposta", name: "resposta", rows: 3, maxlength: 4000, "aria-describedby": base + "-resposta-erro" }),
      el("p", { id: base + "-resposta-erro", class: "field-error", "data-erro-de": "resposta" }),
      el("fieldset", {}, el("legend", {}, "Documentos"), el("p", { id: base + "-dica", class: "hint" }, "PDF ou imagem, até 5 MB cada."), arquivos),
      el("p", { class: "field-error", "data-erro-de": "" }),
      el("button", { type: "submit" }, "Responder pendência"));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); answer(p, form); });
    return el("section", { class: "pendencia", "data-id": p.id, "aria-labelledby": base + "-titulo" },
      el("h2", { id: base + "-titulo" }, "Pendência " + p.id + ": " + (p.codigo || p.grupo)),
      el("p", {}, p.descricao),
      el("p", { class: "hint" }, "Grupo " + p.grupo + " · aberta em ", Widget.when(p.dataPendencia)),
      form);
  }

  async function answer(p, form) {
    Widget.clearErrors(form);
    const resposta = form.elements.resposta.value.trim();
    const inputs = [...form.querySelectorAll("input[type=file]")].filter((i) => i.files.length);
    if (!resposta && !inputs.length) {
      Widget.fieldError(form, "resposta", "Escreva uma resposta ou anexe os documentos pedidos.");
      form.elements.resposta.focus();
      return;
    }
    const big = inputs.find((i) => i.files[0].size > Widget.maxDocument);
    if (big) {
      Widget.fieldError(form, big.name, "O arquivo tem " + big.files[0].size + " bytes; o limite é 5 MB.");
      big.focus();
      return;
    }
    const button = form.querySelector("button");
    button.disabled = true;
    Widget.status(status, "Enviando a resposta da pendência " + p.id + "…");
    try {
      const body = {};
      if (resposta) body.resposta = resposta;
      if (inputs.length) {
        body.documentos = [];
        for (const i of inputs) body.documentos.push(Object.assign({ tipo: i.dataset.tipo }, await Widget.readFile(i.files[0])));
      }
      const r = await Widget.call("PUT", "/benefits/v1/beneficio/" + id + "/pendencias/" + p.id, body);
      if (r.status === 200) {
        Widget.status(status, "Pendência " + p.id + " respondida.", "ok");
        Widget.post({ event: "pendencia", status: "respondida", id: p.id, beneficioId: Number(id) });
        reload();
        return;
      }
      // documentos.N is the Nth file sent: its field is the Nth input chosen.
      const rest = Widget.fieldErrors(form, r.body, (campo) => {
        const m = campo.match(/^documentos\.(\d+)/);
        return m && inputs[Number(m[1])] ? inputs[Number(m[1])].name : campo;
      });
      if (rest.length) Widget.fieldError(form, "", rest.join(" "));
      Widget.status(status, r.status === 401 ? Widget.problem(r) : "A seguradora não aceitou a resposta da pendência " + p.id + ": veja os campos.", "error");
      if (!form.querySelector("[aria-invalid=true]")) form.elements.resposta.focus();
    } catch (err) {
      Widget.fieldError(form, "", "Não foi possível ler um arquivo: " + (err && err.message || err));
      Widget.status(status, "A resposta não foi enviada.", "error");
    } finally {
      button.disabled = false;
    }
  }

  let started = false;
  Widget.everyToken(() => {
    reload();
    if (started) return;
    started = true;
    Widget.follow({ types: "beneficio.*", subject: "beneficioId:" + id }, (e) => {
      if (e.type === "beneficio.status" && e.data) showStatus(e.data.statusAtual, e.occurredAt);
      reload();
    }, (state) => { if (state === "open") reload(); });
  });
})();

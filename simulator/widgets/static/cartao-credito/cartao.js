// cartao.js: the credit-card widget. The partner frames
//   /widgets/cartao-credito/?cnpj=&acao=PreAutorizacao&valorCompra=
//     &chave=cpf&valor=<cpf>&chave=ModeloProposta&valor=<codigo>
// (the evidenced URL: repeated chave/valor pairs), posts it the token
// ({event: "notify", property: "Auth", value}), and gets back by
// postMessage the insurer's answer as a JSON string, whose
// Valor.CodigoPreAutorizacao goes into CARTAO.NUM_PRE_AUTORIZACAO. The card
// number goes to the sandbox only, never to the host page.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("form"), submit = $("pagar"), status = $("status");
  const fields = ["numero", "validade", "cvv", "titular"];

  // The URL's chave/valor pairs, by chave (case-insensitive).
  const q = new URLSearchParams(location.search);
  const chaves = q.getAll("chave"), valores = q.getAll("valor");
  const params = {};
  chaves.forEach((k, i) => { params[k.toLowerCase()] = valores[i] ?? ""; });
  const cpf = (params.cpf || "").replace(/\D/g, "");
  const modelo = params.modeloproposta || "";
  const valor = parseValor(q.get("valorCompra"));
  const acao = q.get("acao") || "PreAutorizacao";

  function parseValor(v) {
    if (!v) return NaN;
    // "1.234,56" and "1234,56" are Brazilian; "1234.56" is not.
    const s = v.includes(",") ? v.replace(/\./g, "").replace(",", ".") : v;
    return Number(s);
  }
  const brl = (n) => n.toLocaleString("pt-BR", { style: "currency", currency: "BRL" });

  const config = [];
  if (acao !== "PreAutorizacao") config.push(`ação "${acao}" não suportada (use acao=PreAutorizacao)`);
  if (cpf.length !== 11) config.push("a URL não traz o CPF do proponente (chave=cpf&valor=<cpf>)");
  if (!(valor > 0)) config.push("a URL não traz valorCompra positivo");
  if (config.length) {
    Widget.status(status, "Widget mal configurado pelo site parceiro: " + config.join("; ") + ".", "error");
  } else {
    $("resumo").textContent = `Pré-autorização de ${brl(valor)} para o CPF ***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**` +
      (modelo ? ` (modelo ${modelo})` : "") + ".";
    Widget.onToken(() => {
      submit.disabled = false;
      Widget.status(status, "Pronto: preencha os dados do cartão.");
    });
  }

  const digits = (s) => s.replace(/[\s.-]/g, "");

  function luhn(n) {
    let sum = 0, dbl = false;
    for (let i = n.length - 1; i >= 0; i--) {
      let d = n.charCodeAt(i) - 48;
      if (dbl && (d *= 2) > 9) d -= 9;
      sum += d;
      dbl = !dbl;
    }
    return sum % 10 === 0;
  }

  // check returns {field: message} for every field in error.
  function check() {
    const errs = {};
    const numero = digits($("numero").value);
    if (!numero) errs.numero = "Informe o número do cartão.";
    else if (!/^\d{13,19}$/.test(numero)) errs.numero = "O número do cartão tem de 13 a 19 dígitos.";
    else if (!luhn(numero)) errs.numero = "Número de cartão inválido: confira os dígitos.";

    const v = $("validade").value.trim();
    const m = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(v);
    if (!v) errs.validade = "Informe a validade do cartão (MM/AA).";
    else if (!m || +m[1] < 1 || +m[1] > 12) errs.validade = "Validade no formato MM/AA, com o mês de 01 a 12.";
    else {
      const year = m[2].length === 2 ? 2000 + +m[2] : +m[2];
      const now = new Date();
      // A card is valid through the last day of its month.
      if (year * 12 + +m[1] < now.getFullYear() * 12 + now.getMonth() + 1) errs.validade = "Cartão vencido: confira a validade.";
    }

    const cvv = $("cvv").value.trim();
    if (!cvv) errs.cvv = "Informe o código de segurança (verso do cartão).";
    else if (!/^\d{3,4}$/.test(cvv)) errs.cvv = "O código de segurança tem 3 ou 4 dígitos.";

    if ($("titular").value.trim().length < 2) errs.titular = "Informe o nome impresso no cartão.";
    return errs;
  }

  function show(errs) {
    for (const f of fields) {
      const el = $(f);
      $(f + "-erro").textContent = errs[f] || "";
      if (errs[f]) el.setAttribute("aria-invalid", "true"); else el.removeAttribute("aria-invalid");
    }
  }

  // A field is re-checked when left, so its message goes away once fixed.
  for (const f of fields) {
    $(f).addEventListener("blur", () => {
      if (!$(f).hasAttribute("aria-invalid")) return;
      const errs = check();
      $(f + "-erro").textContent = errs[f] || "";
      if (!errs[f]) $(f).removeAttribute("aria-invalid");
    });
  }

  // scrub removes the card number from anything bound for the host page,
  // whatever the sandbox answered (a validation error may echo a value).
  function scrub(v, numero) {
    if (typeof v === "string") return numero ? v.split(numero).join("****" + numero.slice(-4)) : v;
    if (Array.isArray(v)) return v.map((x) => scrub(x, numero));
    if (v && typeof v === "object") {
      const out = {};
      for (const [k, x] of Object.entries(v)) if (k !== "value") out[k] = scrub(x, numero);
      return out;
    }
    return v;
  }

  // envelope is what the host gets for a refusal: the insurer's envelope,
  // as for an approval, whatever dialect the sandbox answered in.
  function envelope(status, body) {
    if (body && Array.isArray(body.Mensagens)) return body;
    const code = body && typeof body.type === "string" ? body.type.replace(/^urn:homologa:problem:/, "") : "ERRO_HTTP_" + status;
    const errs = body && Array.isArray(body.errors) ? body.errors : [];
    const msgs = errs.length
      ? errs.map((e) => ({ Codigo: code, Descricao: e.reason, Campo: e.field }))
      : [{ Codigo: code, Descricao: (body && (body.detail || body.title)) || "HTTP " + status }];
    return { Valor: null, Mensagens: msgs, HouveErrosDuranteProcessamento: true };
  }

  const reasonOf = (env) => env.Mensagens.map((m) => m.Descricao.replace(/^numero: /, "")).join("; ");

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (submit.disabled) return;
    const errs = check();
    show(errs);
    const bad = fields.filter((f) => errs[f]);
    if (bad.length) {
      Widget.status(status, `Corrija ${bad.length === 1 ? "o campo destacado" : "os " + bad.length + " campos destacados"}: ` +
        bad.map((f) => errs[f]).join(" "), "error");
      $(bad[0]).focus();
      return;
    }
    const numero = digits($("numero").value);
    const m = /^(\d{2})\s*\/\s*(\d{2,4})$/.exec($("validade").value.trim());
    submit.disabled = true;
    Widget.status(status, "Autorizando o pagamento…");
    let ans;
    try {
      ans = await Widget.api("POST", "/sandbox/cartao/preautorizacao", {
        cpf, valor, numero, validade: m[1] + "/" + m[2], nomePortador: $("titular").value.trim(),
      });
    } catch (e) {
      submit.disabled = false;
      Widget.status(status, "Sem resposta da seguradora: tente novamente.", "error");
      return;
    }
    submit.disabled = false;
    if (ans.status === 201) {
      const v = ans.body.Valor;
      $("numero").value = "";
      $("cvv").value = "";
      submit.textContent = "Autorizar pagamento";
      Widget.status(status, `Pagamento pré-autorizado: código ${v.CodigoPreAutorizacao}, cartão ${v.Bandeira} final ${v.Final}.`, "ok");
      Widget.post(scrub(ans.body, numero));
      return;
    }
    const env = scrub(envelope(ans.status, ans.body), numero);
    const code = env.Mensagens[0].Codigo;
    if (code === "PRE_AUTORIZACAO_TENTE_NOVAMENTE") {
      submit.textContent = "Tentar novamente";
      Widget.status(status, "Não foi possível autorizar agora: " + reasonOf(env) + ". Os dados continuam preenchidos: tente de novo.", "error");
    } else if (code === "PRE_AUTORIZACAO_NEGADA") {
      Widget.status(status, "Pagamento recusado: " + reasonOf(env) + ". Use outro cartão.", "error");
    } else if (ans.status === 401 || ans.status === 403) {
      Widget.status(status, "O site parceiro enviou um token inválido ou sem permissão: " + reasonOf(env), "error");
    } else {
      // The sandbox's own checks (validade by its clock, the number):
      // put each message on its field when there is one.
      const onField = {};
      for (const msg of env.Mensagens) {
        const f = msg.Campo === "nomePortador" ? "titular" : msg.Campo;
        if (fields.includes(f)) onField[f] = msg.Descricao.replace(new RegExp("^" + msg.Campo + ": "), "");
      }
      show(onField);
      const first = fields.find((f) => onField[f]);
      if (first) $(first).focus();
      Widget.status(status, "A seguradora recusou os dados: " + reasonOf(env), "error");
    }
    Widget.post(env);
  });
})();

// dashboard.js: the operator's view of the sandbox. It reads the portal and
// control APIs as any client would, with the operator's token (or an app's,
// for its company's view), and follows /sandbox/events/ws; every piece of
// data is put on the page as text, never as markup, since paths, bodies and
// names come from partners.
'use strict';
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === undefined || kid === null || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  // Times are sandbox time, shown in UTC to the second: the sandbox may be
  // a year ahead, and the local zone would only add confusion.
  function fmtTime(iso) {
    if (!iso) return '';
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return String(iso);
    return d.toISOString().replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
  }
  const isoSeconds = (ms) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
  // A narrow column wraps a time between its date and its time of day.
  const timeEl = (iso) => (iso ? h('time', { datetime: iso }, fmtTime(iso).replace(/ UTC$/, '\u00a0UTC')) : '—');
  const short = (id) => (id && id.length > 12 ? id.slice(0, 8) + '…' : id || '');

  class APIError extends Error {
    constructor(status, body, text) {
      let msg = `${status}`;
      if (body && (body.detail || body.title)) {
        msg = body.detail || body.title;
        for (const v of body.errors || []) msg += ` (${v.field}: ${v.reason})`;
      } else if (text) {
        msg += ' ' + text.slice(0, 200);
      }
      super(msg);
      this.status = status;
    }
  }

  // The credential comes in the link the sandbox prints at start
  // (#operator=…): the fragment never reaches a server or a log. It is kept
  // for the tab only, and taken out of the address bar at once.
  const TOKEN_KEY = 'homologa.dashboard.token';
  function takeToken() {
    const m = /(?:^#|&)operator=([^&]+)/.exec(location.hash);
    if (m) {
      sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
      history.replaceState(null, '', location.pathname + location.search);
    }
    return sessionStorage.getItem(TOKEN_KEY) || '';
  }
  let token = takeToken();

  function askToken(why) {
    const f = $('#signin');
    f.hidden = false;
    $('#signin-why').textContent = why;
  }

  async function api(method, path, body) {
    const opts = { method, headers: { Accept: 'application/json' } };
    if (token) opts.headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, opts);
    } catch (e) {
      offline(true);
      throw e;
    }
    offline(false);
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    if (res.status === 401) {
      state.signedIn = false;
      askToken('Sign in: with your portal account, or with the operator token the sandbox printed at start.');
      if (!ws) streamState('Sign in to see live events');
    } else if (res.ok) {
      state.signedIn = true;
    }
    if (!res.ok) throw new APIError(res.status, data, text);
    return data;
  }

  function offline(down) {
    const b = $('#offline');
    if (down === !b.hidden) return;
    b.hidden = !down;
    b.textContent = down ? 'The sandbox does not answer. Is it still running? The views retry on their own.' : '';
  }

  function say(el, text, kind) {
    el.textContent = text;
    el.classList.toggle('error', kind === 'error');
    el.classList.toggle('ok', kind === 'ok');
  }

  // Status words share a colour by outcome; the word itself is always
  // shown, so colour is never the only signal.
  function tone(s) {
    s = String(s || '');
    if (/REMOV|RECUS|REJEIT|CANCEL|EXPIR|NAO_REALIZADO|NEGADA|ESTORN|SUSPENS|INADIMPL|^dead$|^dropped$|^stopped$/i.test(s)) return 'bad';
    if (/PEND|ANALISE|PROCESSAMENTO|REGULACAO|AVISADO|SOLICITAD|CRIADA|EMITIDA|REABERT|^pending$|^queued$|^running$/i.test(s)) return 'warn';
    if (/CONCLUID|PAGA|PAGO|IMPLANTAD|APROVAD|DEVOLVID|ATIV|RECEBID|^delivered$|^done$/i.test(s)) return 'good';
    return 'neutral';
  }
  const badge = (s) => h('span', { class: 'badge ' + tone(s) }, s || '—');

  // Long values (URLs, paths, ids) come from partners without spaces: left
  // alone, a narrow column overflows its panel or, broken anywhere, is cut
  // letter by letter. breakable offers a break after each separator, so a
  // value wraps where a reader expects it to; cut keeps it on one line,
  // ends it with an ellipsis where the column ends, and says it whole in
  // its title (a screen reader and a copy get it whole anyway).
  const breakable = (text) => String(text).split(/(?<=[/?&=#;,])/).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));
  const cut = (text) => h('code', { class: 'cut', title: text }, text);

  // An injected fault is named "scenario#faults.N (file:line): action":
  // the badge says that a fault was injected, the words beside it which
  // scenario and what it did, and the title the whole name.
  function faultNote(injected, kind) {
    const what = String(injected).split('; ').map((n) => {
      const m = /^([^#]+)#faults\.\d+ \([^)]*\): (.*)$/.exec(n);
      return m ? `${m[1]}: ${m[2]}` : n;
    }).join('; ');
    return h('span', { class: 'fault', title: injected }, h('span', { class: 'badge ' + kind }, 'fault'), ' ', h('span', { class: 'fault-what' }, breakable(what)));
  }
  const httpBadge = (code) => h('span', { class: 'badge ' + (!code ? 'bad' : code < 300 ? 'good' : code < 500 ? 'warn' : 'bad') }, code ? String(code) : 'no answer');

  // Re-rendering a table must not throw away the keyboard user's place:
  // the focused control is found again by its key after the rebuild.
  function rebuild(tbody, rows) {
    const active = document.activeElement;
    const key = active && tbody.contains(active) ? active.dataset.focusKey : null;
    tbody.replaceChildren(...rows);
    if (key) {
      const again = $$('[data-focus-key]', tbody).find((el) => el.dataset.focusKey === key);
      if (again) again.focus();
    }
  }

  function emptyRow(cols, text) {
    return h('tr', {}, h('td', { colspan: cols, class: 'empty' }, text));
  }

  function toggleButton(label, id, expanded, onToggle, controls) {
    return h('button', {
      type: 'button', class: 'link', 'aria-expanded': expanded ? 'true' : 'false', 'aria-controls': controls,
      dataset: { focusKey: 'toggle:' + id }, onclick: onToggle,
    }, label);
  }

  const state = {
    live: true,
    // Whether the sandbox took the credential: until it has, there is no
    // stream to open, nor one to lose.
    signedIn: false,
    apps: [],
    appsByID: new Map(),
    companies: new Map(), // cnpj → name
    kindsLoaded: false,
    last: {}, // view → JSON last rendered, to skip unchanged redraws
    expandedDeliveries: new Set(),
    expandedInteractions: new Set(),
  };

  // Views are read by timers, by events and by buttons at once; an answer
  // overtaken by a later request of the same view is dropped, so a view
  // never goes back to older data.
  const seqs = {};
  async function fresh(view, fetcher) {
    const n = (seqs[view] = (seqs[view] || 0) + 1);
    const data = await fetcher();
    return n === seqs[view] ? data : null;
  }

  const clientOf = (appID) => (state.appsByID.get(appID) || {}).clientId || (appID ? short(appID) : '');
  const fmtCNPJ = (c) => (/^\d{14}$/.test(c) ? c.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5') : c);

  // ---- clock ----
  // The clock shown is said in words: the operator reads the sandbox's
  // default clock, and each company on a clock of its own runs apart from
  // it (a company that advanced its clock 2 h is 2 h ahead until the
  // default catches up); a company's login reads its company's clock.
  let clock = null; // GET /sandbox/clock: the default (operator) or the company's
  let clockBusy = false;
  // A read of the clock that was sent before an advance ended must not
  // put the old time back on the page: each advance starts a generation.
  let clockGen = 0;
  const ownClocks = new Map(); // company id → its own clock (GET /sandbox/clocks)
  let clockCompany = ''; // the company whose clock the operator looks at; '' the default

  const snapshot = (c) => ({ ms: Date.parse(c.now), mode: c.mode, factor: c.factor, jobs: c.pendingJobs, jump: c.jump,
    own: c.own, scope: c.scope, cnpj: c.cnpj, namespace: c.namespace, at: performance.now() });
  const nowOf = (c) => c.ms + (performance.now() - c.at) * (c.factor || 0);
  const operatorView = () => !!clock && clock.scope === 'sandbox';

  function setClock(c) {
    clock = snapshot(c);
    renderClock();
  }

  // "2 h ahead of the default clock" (short: "2 h ahead"): a company's
  // own clock against the default, to the second, in its two largest
  // units.
  function offsetOf(id, short) {
    if (!ownClocks.has(id) || !clock) return '';
    const ms = nowOf(ownClocks.get(id)) - nowOf(clock);
    let left = Math.round(Math.abs(ms) / 1000);
    if (!left) return short ? 'the default’s time' : 'on the default clock’s time';
    const parts = [];
    for (const [n, unit] of [[86400, 'd'], [3600, 'h'], [60, 'min'], [1, 's']]) {
      if (left >= n) parts.push(`${Math.floor(left / n)} ${unit}`);
      left %= n;
    }
    const amount = parts.slice(0, 2).join(' ');
    if (short) return `${amount} ${ms > 0 ? 'ahead' : 'behind'}`;
    return `${amount} ${ms > 0 ? 'ahead of' : 'behind'} the default clock`;
  }

  // The companies whose clock the operator may look at: the apps' and
  // those on a clock of their own.
  function clockCompanies() {
    const out = new Map(state.apps.map((a) => [a.companyId, { id: a.companyId, cnpj: a.cnpj }]));
    for (const [id, c] of ownClocks) out.set(id, { id, cnpj: c.cnpj, namespace: c.namespace });
    return [...out.values()];
  }
  const companyName = (co) => `${state.companies.get(co.cnpj) || fmtCNPJ(co.cnpj)} (${fmtCNPJ(co.cnpj)}${co.namespace ? ', namespace ' + co.namespace : ''})`;

  function whichClock(co) {
    if (!operatorView()) {
      return clock.own ? 'Your company’s own clock: it moved its clock, so the default clock no longer moves it.'
        : 'Your company’s clock: the sandbox’s default clock, which it follows until it moves its own (advancing here does).';
    }
    if (!co) {
      const n = ownClocks.size;
      return `The sandbox’s default clock: every company reads it until it moves its own${n ? `; ${n} ${n === 1 ? 'company has' : 'companies have'} (beside)` : ''}.`;
    }
    if (!ownClocks.has(co.id)) return `${companyName(co)} follows the default clock: this is the time it reads.`;
    return `${companyName(co)}’s own clock, ${offsetOf(co.id)}. The buttons move the default clock; a company moves its own with its app’s token or its portal login.`;
  }

  function renderClock() {
    if (!clock) return;
    const co = operatorView() && clockCompany ? clockCompanies().find((x) => x.id === clockCompany) : null;
    const c = (co && ownClocks.get(co.id)) || clock;
    const t = $('#clock-now');
    const iso = isoSeconds(nowOf(c));
    if (t.getAttribute('datetime') !== iso) {
      t.setAttribute('datetime', iso);
      t.textContent = fmtTime(iso);
    }
    t.dataset.clock = c === clock ? 'default' : co.id;
    const which = whichClock(co);
    if ($('#clock-which').textContent !== which) $('#clock-which').textContent = which;
    const mode = c.mode === 'frozen' ? 'frozen: moves only when advanced or set'
      : c.mode === 'accelerated' ? `accelerated, ×${c.factor}` : 'real time';
    $('#clock-mode').textContent = mode;
    $('#clock-jobs').textContent = String(clock.jobs);
    $('#clock-jobs-fact').hidden = c !== clock;
    $('#clock-pick').hidden = !operatorView();
    $('.clock-side').hidden = !operatorView();
    $('#advance-label').textContent = operatorView() ? 'Advance the default clock' : 'Advance your company’s clock';
    // The operator's buttons cannot move a company's own clock.
    for (const b of $$('[data-advance], #advance-form button, #advance-by')) b.disabled = c !== clock;
    renderJump(c.jump);
  }

  // A jump of many jobs answers before it lands (202) and runs in the
  // background: its progress shows, read again every second, until done.
  let jumpPoll = null;
  function renderJump(j) {
    const box = $('#clock-jump');
    const running = !!(j && !j.done);
    box.hidden = !running;
    if (running) {
      const t = $('#clock-jump-target');
      t.setAttribute('datetime', j.target);
      t.textContent = fmtTime(j.target);
      $('#clock-jump-run').textContent = String(j.jobsRun);
      $('#clock-jump-left').textContent = String(j.jobsRemaining);
      const total = j.jobsRun + j.jobsRemaining;
      const bar = $('#clock-jump-progress');
      bar.max = total || 1;
      bar.value = j.jobsRun;
    }
    if (running && !jumpPoll) {
      jumpPoll = setInterval(() => run(loadClock), 1000);
    } else if (!running && jumpPoll) {
      clearInterval(jumpPoll);
      jumpPoll = null;
      refreshSoon();
    }
  }

  async function loadClock() {
    const gen = clockGen;
    const c = await api('GET', '/sandbox/clock');
    if (gen === clockGen && !clockBusy) setClock(c);
    const { clocks } = await api('GET', '/sandbox/clocks');
    renderClocks(clocks);
  }

  // Each company reads its own clock once it has moved it; the others
  // follow the default. Its offset from the default shows beside, in the
  // choice of clock and by the company in the apps table.
  function renderClocks(clocks) {
    // A company's login reads its own clock and not the default: there is
    // nothing to set it against.
    ownClocks.clear();
    if (operatorView()) for (const c of clocks.filter((x) => x.own)) ownClocks.set(c.companyId, snapshot(c));
    $('#clocks-none').hidden = ownClocks.size > 0;
    $('#clocks').replaceChildren(...clocks.filter((x) => ownClocks.has(x.companyId)).map((c) => h('li', { dataset: { company: c.companyId, cnpj: c.cnpj } },
      h('span', { class: 'company' }, state.companies.get(c.cnpj) || fmtCNPJ(c.cnpj)), ' ',
      h('span', { class: 'mono hint' }, fmtCNPJ(c.cnpj)), c.namespace ? h('span', { class: 'hint' }, ` (namespace ${c.namespace})`) : '',
      h('br'), timeEl(isoSeconds(Date.parse(c.now))), ` — ${c.mode === 'accelerated' ? `×${c.factor}` : c.mode} — `, h('strong', { class: 'offset' }, offsetOf(c.companyId)),
      c.jump ? h('span', { class: 'jumping' }, ` — jumping to ${fmtTime(c.jump.target)}: ${c.jump.jobsRun} jobs run, ${c.jump.jobsRemaining} still due`) : '')));
    fillClockSelect();
    renderClock();
    // The apps table shows each company's offset: drawn again when one
    // changes, not at every read.
    const offsets = JSON.stringify([...ownClocks.keys()].map((id) => [id, offsetOf(id)]));
    if (state.last.offsets !== offsets) {
      state.last.offsets = offsets;
      if (state.apps.length) renderApps();
    }
  }

  function fillClockSelect() {
    const sel = $('#clock-company');
    const cos = clockCompanies().sort((a, b) => companyName(a).localeCompare(companyName(b)));
    const opts = [['', 'The sandbox: its default clock'],
      ...cos.map((co) => [co.id, `${companyName(co)}: ${ownClocks.has(co.id) ? offsetOf(co.id) : 'follows the default clock'}`])];
    const sig = JSON.stringify(opts);
    if (sel.dataset.sig === sig) return;
    sel.dataset.sig = sig;
    sel.replaceChildren(...opts.map(([v, label]) => h('option', { value: v }, label)));
    sel.value = opts.some(([v]) => v === clockCompany) ? clockCompany : '';
  }

  // The operator picks a company's clock, here or by filtering the live
  // events by its CNPJ (the company of that CNPJ outside any namespace).
  function showClockOf(id) {
    clockCompany = id;
    fillClockSelect();
    $('#clock-company').value = id;
    renderClock();
  }

  async function advance(by) {
    const status = $('#clock-status');
    if (clockBusy) return;
    clockBusy = true;
    clockGen++;
    $('#clock').setAttribute('aria-busy', 'true');
    say(status, `Advancing by ${by}…`);
    try {
      const c = await api('POST', '/sandbox/clock/advance', { by });
      setClock(c);
      if (c.jump && !c.jump.done) {
        say(status, `Jumping by ${by}: ${c.jobsRun} scheduled job${c.jobsRun === 1 ? '' : 's'} ran so far; the jump goes on in the background.`, 'ok');
      } else {
        say(status, `Advanced by ${by}: now ${fmtTime(c.now)}; ${c.jobsRun} scheduled job${c.jobsRun === 1 ? '' : 's'} ran.`, 'ok');
      }
      refreshSoon();
    } catch (e) {
      say(status, `Could not advance: ${e.message}`, 'error');
    } finally {
      clockBusy = false;
      clockGen++;
      $('#clock').removeAttribute('aria-busy');
    }
  }

  // ---- apps ----
  async function loadApps() {
    const { apps } = await api('GET', '/portal/apps');
    state.apps = apps;
    state.appsByID = new Map(apps.map((a) => [a.id, a]));
    for (const cnpj of new Set(apps.map((a) => a.cnpj))) {
      if (state.companies.has(cnpj)) continue;
      try {
        const c = await api('GET', '/portal/companies/' + encodeURIComponent(cnpj));
        state.companies.set(cnpj, c.name);
      } catch {
        state.companies.set(cnpj, '');
      }
    }
    renderApps();
    fillAppSelects();
  }

  function renderApps() {
    const tbody = $('#apps-table tbody');
    if (!state.apps.length) {
      rebuild(tbody, [emptyRow(4, 'No apps yet: create one with POST /portal/apps.')]);
      return;
    }
    const apps = [...state.apps].sort((a, b) => (a.cnpj + a.name).localeCompare(b.cnpj + b.name));
    rebuild(tbody, apps.map((a) => h('tr', { dataset: { clientId: a.clientId } },
      h('td', {}, h('span', { class: 'company' }, state.companies.get(a.cnpj) || '—'), h('br'), h('span', { class: 'mono hint' }, fmtCNPJ(a.cnpj)),
        ownClocks.has(a.companyId) ? [h('br'), h('span', { class: 'badge neutral own-clock', title: `On a clock of its own, ${offsetOf(a.companyId)}` },
          'own clock: ' + offsetOf(a.companyId, true))] : ''),
      h('td', {}, a.name, h('br'), h('code', {}, a.clientId), ' ', badge(a.environment)),
      h('td', { class: 'url' }, a.webhookUrl ? h('code', {}, breakable(a.webhookUrl)) : h('span', { class: 'hint' }, 'none')),
      h('td', {}, h('details', {},
        h('summary', {}, `${(a.scopes || []).length} scope${(a.scopes || []).length === 1 ? '' : 's'}`),
        h('ul', { class: 'scopes' }, (a.scopes || []).map((s) => h('li', {}, h('code', {}, s)))))),
    )));
  }

  function fillAppSelects() {
    for (const sel of $$('select.app-select')) {
      const keep = sel.value;
      sel.replaceChildren(h('option', { value: '' }, 'All apps'),
        ...state.apps.map((a) => h('option', { value: a.clientId }, `${a.name} (${a.clientId})`)));
      sel.value = state.apps.some((a) => a.clientId === keep) ? keep : '';
    }
    const exp = $('#exp-app');
    const keepExp = exp.value;
    exp.replaceChildren(...state.apps.map((a) => h('option', { value: a.clientId }, `${a.name} (${a.clientId})`)));
    if (state.apps.some((a) => a.clientId === keepExp)) exp.value = keepExp;
    const comp = $('#ev-company');
    const keep = comp.value;
    comp.replaceChildren(h('option', { value: '' }, 'All companies'),
      ...[...new Set(state.apps.map((a) => a.cnpj))].map((c) => h('option', { value: c }, `${state.companies.get(c) || c} (${fmtCNPJ(c)})`)));
    comp.value = keep;
  }

  // ---- export as feature ----
  // datetime-local speaks the browser's local time without a zone.
  const localInput = (d) => new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19);

  async function exportFeature() {
    const status = $('#export-status');
    const app = $('#exp-app').value;
    const since = $('#exp-since').value;
    if (!app || !since) {
      say(status, 'Choose an app and the instant the session began.', 'error');
      return;
    }
    const q = new URLSearchParams({ clientId: app, since: new Date(since).toISOString() });
    if ($('#exp-until').value) q.set('until', new Date($('#exp-until').value).toISOString());
    const opts = { headers: {} };
    if (token) opts.headers.Authorization = `Bearer ${token}`;
    say(status, 'Recording…');
    let res;
    try {
      res = await fetch('/sandbox/recording?' + q, opts);
    } catch (e) {
      say(status, 'The sandbox does not answer.', 'error');
      return;
    }
    const text = await res.text();
    if (!res.ok) {
      let detail = text;
      try { detail = JSON.parse(text).detail || text; } catch { /* not JSON */ }
      say(status, `The sandbox could not export: ${detail}`, 'error');
      return;
    }
    const name = (/filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '') || [])[1] || 'sessao.feature';
    const link = $('#export-download');
    if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = name;
    link.textContent = `Download ${name}`;
    $('#export-text').textContent = text;
    $('#export-out').hidden = false;
    say(status, `Exported: ${(text.match(/^  Scenario:/gm) || []).length} scenario(s).`, 'ok');
  }

  // ---- resources ----
  async function loadResources() {
    const f = $('#resources-form');
    const p = new URLSearchParams({ limit: '50' });
    for (const name of ['kind', 'app', 'status']) {
      const v = f.elements[name].value.trim();
      if (v) p.set(name, v);
    }
    const data = await fresh('resources', () => api('GET', '/sandbox/resources?' + p));
    if (!data) return;
    if (!state.kindsLoaded) {
      const sel = $('#res-kind');
      sel.append(...data.kinds.map((k) => h('option', { value: k }, k)));
      state.kindsLoaded = true;
    }
    const json = JSON.stringify(data);
    if (state.last.resources === json) return;
    state.last.resources = json;

    const byKind = new Map();
    for (const c of data.counts) {
      if (!byKind.has(c.kind)) byKind.set(c.kind, []);
      byKind.get(c.kind).push(c);
    }
    const counts = data.kinds.filter((k) => byKind.has(k)).map((k) => h('tr', { dataset: { kind: k } },
      h('th', { scope: 'row' }, k),
      h('td', {}, h('ul', { class: 'badges' }, byKind.get(k).map((c) => h('li', {}, badge(c.status), ' ', h('strong', {}, String(c.count))))))));
    rebuild($('#counts-table tbody'), counts.length ? counts : [emptyRow(2, 'No resources yet.')]);
    const full = [...byKind.values()].some((cs) => cs.reduce((n, c) => n + c.count, 0) >= data.window);
    $('#counts-window').textContent = full ? `Counts and list cover the newest ${data.window} of each kind.` : '';

    const rows = data.resources.map((r) => h('tr', { dataset: { kind: r.kind, id: r.id } },
      h('td', {}, r.kind),
      h('td', {}, h('code', {}, r.id)),
      h('td', {}, badge(r.status)),
      h('td', {}, r.clientId || short(r.appId)),
      h('td', {}, r.detail || ''),
      h('td', {}, timeEl(r.updatedAt))));
    rebuild($('#resources-table tbody'), rows.length ? rows : [emptyRow(6, 'Nothing matches.')]);
  }

  // ---- events ----
  const MAX_EVENTS = 200;
  let ws = null;
  let lastSeq = -1;
  let retry = 1000;
  const paused = [];
  // Only a stream that was open can be lost: a stream refused before
  // sign-in is no news, and a red "lost" then would be a false alarm.
  let streamWasOpen = false;

  function streamState(text, kind) {
    const c = $('#conn');
    c.textContent = text;
    c.className = 'conn' + (kind ? ' ' + kind : '');
  }

  function connect() {
    if (!state.signedIn) {
      ws = null;
      streamState('Sign in to see live events');
      return;
    }
    const f = $('#events-form');
    const p = new URLSearchParams();
    if (lastSeq >= 0) p.set('since', String(lastSeq));
    else p.set('recent', '50');
    const types = f.elements.types.value.replace(/\s+/g, '');
    if (types) p.set('types', types);
    if (f.elements.cnpj.value) p.set('cnpj', f.elements.cnpj.value);
    // A browser cannot set headers on a websocket: the token goes in the query.
    if (token) p.set('access_token', token);
    const sock = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/sandbox/events/ws?${p}`);
    ws = sock;
    sock.onopen = () => {
      retry = 1000;
      streamWasOpen = true;
      streamState('Event stream connected', 'up');
    };
    sock.onmessage = (m) => {
      let e;
      try { e = JSON.parse(m.data); } catch { return; }
      lastSeq = Math.max(lastSeq, e.sequence);
      if (state.live) addEvent(e);
      else if (paused.push(e) > 1000) paused.shift();
      updateEventCount();
      refreshSoon();
    };
    sock.onclose = (ev) => {
      if (ws !== sock) return; // replaced on purpose
      const wait = retry;
      retry = Math.min(retry * 2, 10000);
      const why = ev.reason ? ` (${ev.reason})` : '';
      if (!state.signedIn) {
        // Signed out meanwhile: signing in again connects.
        ws = null;
        streamState('Sign in to see live events');
        return;
      }
      if (streamWasOpen) streamState(`Event stream lost${why}; reconnecting in ${wait / 1000} s…`, 'down');
      else streamState(`Event stream not open yet${why}; trying again in ${wait / 1000} s…`);
      setTimeout(() => { if (ws === sock) connect(); }, wait);
    };
  }

  // The stream opens once the sandbox has taken the credential: at start,
  // or at a later tick when the sandbox was not answering at start.
  function openStream() {
    if (state.signedIn && !ws) connect();
  }

  function reconnect() {
    const old = ws;
    ws = null;
    if (old) old.close();
    lastSeq = -1;
    paused.length = 0;
    $('#event-list').replaceChildren();
    updateEventCount();
    connect();
  }

  function subjectText(s) {
    return Object.entries(s || {}).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : v}`).join(' · ');
  }

  function addEvent(e) {
    const list = $('#event-list');
    const li = h('li', { dataset: { seq: String(e.sequence), type: e.type } },
      h('details', {},
        h('summary', {},
          h('span', { class: 'seq' }, '#' + e.sequence), ' ',
          timeEl(e.occurredAt), ' ',
          h('code', { class: 'etype' }, e.type), ' ',
          h('span', {}, e.name || ''),
          h('span', { class: 'hint' }, ' · ' + (state.companies.get(e.cnpj) || fmtCNPJ(e.cnpj)) + (subjectText(e.subject) ? ' · ' + subjectText(e.subject) : ''))),
        h('pre', { tabindex: '0' }, JSON.stringify(e, null, 2))));
    // History and live events may interleave at a reconnect: keep order,
    // and show an event once.
    const items = $$('li', list);
    if (items.some((x) => Number(x.dataset.seq) === e.sequence)) return;
    list.insertBefore(li, items.find((x) => Number(x.dataset.seq) < e.sequence) || null);
    while (list.children.length > MAX_EVENTS) list.lastElementChild.remove();
  }

  function updateEventCount() {
    const n = $('#event-list').children.length;
    let text = n ? `Showing the newest ${n} event${n === 1 ? '' : 's'}.` : 'No events yet; they appear here as they happen.';
    if (paused.length) text += ` ${paused.length} more arrived while live updates are off.`;
    $('#events-count').textContent = text;
  }

  // ---- deliveries ----
  async function loadDeliveries() {
    const f = $('#deliveries-form');
    const p = new URLSearchParams({ limit: '50' });
    if (f.elements.status.value) p.set('status', f.elements.status.value);
    if (f.elements.app.value) p.set('app', f.elements.app.value);
    const data = await fresh('deliveries', () => api('GET', '/sandbox/deliveries?' + p));
    if (!data) return;
    const json = JSON.stringify(data) + [...state.expandedDeliveries].join();
    if (state.last.deliveries === json) return;
    state.last.deliveries = json;
    renderDeliveries(data.deliveries || []);
  }

  function renderDeliveries(list) {
    const rows = [];
    for (const d of list) {
      const open = state.expandedDeliveries.has(d.id);
      const n = (d.attempts || []).length;
      const last = n ? d.attempts[n - 1] : null;
      const detailID = 'del-' + d.id;
      rows.push(h('tr', { dataset: { id: d.id, eventType: d.eventType } },
        h('td', {}, timeEl(d.createdAt)),
        h('td', {}, h('code', {}, d.eventType), h('br'), h('span', { class: 'hint mono' }, short(d.eventId))),
        h('td', {}, clientOf(d.appId)),
        h('td', { class: 'url fill' }, cut(d.url)),
        h('td', {}, badge(d.status), d.injected ? [h('br'), faultNote(d.injected, 'warn')] : '',
          d.nextAttemptAt ? h('span', { class: 'hint' }, h('br'), 'next ', timeEl(d.nextAttemptAt)) : ''),
        h('td', { class: 'attempts' }, h('span', { class: 'attempt-count' }, String(n)), last ? [' · last ', httpBadge(last.statusCode)] : ''),
        h('td', { class: 'actions' },
          toggleButton(open ? 'Hide attempts' : 'Attempts', d.id, open, () => {
            if (state.expandedDeliveries.has(d.id)) state.expandedDeliveries.delete(d.id);
            else state.expandedDeliveries.add(d.id);
            renderDeliveries(list);
          }, detailID),
          h('button', {
            type: 'button', class: 'replay', 'aria-label': `Replay delivery ${short(d.id)} of ${d.eventType}`,
            dataset: { focusKey: 'replay:' + d.id }, onclick: (ev) => replay(d.id, ev.currentTarget),
          }, 'Replay'))));
      rows.push(h('tr', { id: detailID, class: 'detail', hidden: !open },
        h('td', { colspan: 7 }, deliveryTarget(d), attemptsTable(d))));
    }
    rebuild($('#deliveries-table tbody'), rows.length ? rows : [emptyRow(7, 'No deliveries yet. POST /sandbox/events/ping sends a test event to an app’s webhook.')]);
  }

  // The URL and the fault in full, which the row cuts short.
  function deliveryTarget(d) {
    return h('p', { class: 'target' }, 'To ', h('code', {}, breakable(d.url)),
      d.injected ? ['; fault injected: ', h('code', {}, breakable(d.injected))] : '', '.');
  }

  function attemptsTable(d) {
    const atts = d.attempts || [];
    if (!atts.length) return h('p', { class: 'hint' }, 'Not attempted yet.');
    return h('table', { class: 'attempts' },
      h('caption', {}, `Attempts of delivery ${d.id}`),
      h('thead', {}, h('tr', {}, ['#', 'Sandbox time', 'Wall time', 'Answer', 'Latency', 'Response'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, atts.map((a) => h('tr', { class: 'attempt' },
        h('td', {}, String(a.n), a.replay ? ' (replay)' : ''),
        h('td', {}, timeEl(a.at)),
        h('td', {}, timeEl(a.wallAt)),
        h('td', {}, httpBadge(a.statusCode), a.error ? [' ', a.error] : ''),
        h('td', {}, `${Math.round(a.latencyMs)} ms`),
        h('td', {}, h('code', { class: 'excerpt' }, a.response || ''))))));
  }

  async function replay(id) {
    const status = $('#deliveries-status');
    say(status, `Replaying delivery ${short(id)}…`);
    try {
      const d = await api('POST', `/sandbox/deliveries/${encodeURIComponent(id)}/replay`);
      state.expandedDeliveries.add(id);
      state.last.deliveries = '';
      await loadDeliveries();
      const a = d.attempts[d.attempts.length - 1];
      say(status, `Delivery ${short(id)} replayed: attempt ${a.n} answered ${a.statusCode || a.error || 'nothing'}.`, a.statusCode >= 200 && a.statusCode < 300 ? 'ok' : 'error');
    } catch (e) {
      say(status, `Could not replay: ${e.message}`, 'error');
    }
  }

  // ---- interactions ----
  async function loadInteractions() {
    const f = $('#interactions-form');
    const p = new URLSearchParams({ limit: f.elements.limit.value });
    for (const name of ['app', 'method', 'path']) {
      const v = f.elements[name].value.trim();
      if (v) p.set(name, v);
    }
    const status = $('#interactions-status');
    let data;
    try {
      data = await fresh('interactions', () => api('GET', '/sandbox/interactions?' + p));
    } catch (e) {
      if (e instanceof APIError) say(status, `Filter not accepted: ${e.message}`, 'error');
      throw e;
    }
    if (!data) return;
    say(status, data.dropped ? `${data.dropped} records were dropped under load.` : '');
    const json = JSON.stringify(data.interactions) + [...state.expandedInteractions].join();
    if (state.last.interactions === json) return;
    state.last.interactions = json;
    renderInteractions([...data.interactions].reverse());
  }

  function headerList(hs) {
    const entries = Object.entries(hs || {}).sort(([a], [b]) => a.localeCompare(b));
    if (!entries.length) return h('p', { class: 'hint' }, 'No headers.');
    return h('dl', { class: 'headers' }, entries.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v))));
  }

  function bodyBlock(body) {
    if (!body) return h('p', { class: 'hint' }, 'No body.');
    let text = body;
    try { text = JSON.stringify(JSON.parse(body), null, 2); } catch { /* not JSON: as it came */ }
    // Focusable: a long body scrolls, and the keyboard must reach it.
    return h('pre', { tabindex: '0' }, text);
  }

  function renderInteractions(list) {
    const rows = [];
    for (const it of list) {
      const key = String(it.id);
      const open = state.expandedInteractions.has(key);
      const detailID = 'int-' + key;
      rows.push(h('tr', { dataset: { id: key, method: it.method, path: it.path } },
        h('td', {}, key),
        h('td', {}, timeEl(it.at)),
        h('td', {}, clientOf(it.appId) || h('span', { class: 'hint' }, 'none')),
        h('td', { class: 'url fill' }, h('code', {}, breakable(`${it.method} ${it.path}${it.query ? '?' + it.query : ''}`))),
        h('td', {}, httpBadge(it.status)),
        h('td', {}, `${it.durationMs.toFixed(1)} ms`),
        h('td', { class: 'notes' }, it.injected ? faultNote(it.injected, 'bad') : '',
          it.idempotencyKey ? h('span', { class: 'hint key' }, 'key ', cut(it.idempotencyKey)) : ''),
        h('td', {}, toggleButton(open ? 'Hide' : 'Details', 'int' + key, open, () => {
          if (state.expandedInteractions.has(key)) state.expandedInteractions.delete(key);
          else state.expandedInteractions.add(key);
          renderInteractions(list);
        }, detailID))));
      rows.push(h('tr', { id: detailID, class: 'detail', hidden: !open },
        h('td', { colspan: 8 }, h('div', { class: 'exchange' },
          h('div', {}, h('h3', { class: 'minor' }, 'Request'), headerList(it.requestHeaders), bodyBlock(it.requestBody)),
          h('div', {}, h('h3', { class: 'minor' }, `Response ${it.status}`), headerList(it.responseHeaders), bodyBlock(it.responseBody)),
          h('p', { class: 'hint' }, `Request id ${it.requestId}; API ${it.api}.`)))));
    }
    rebuild($('#interactions-table tbody'), rows.length ? rows : [emptyRow(8, 'No requests match.')]);
  }

  // ---- scenarios, faults, bindings ----
  let catalogue = [];

  async function loadScenarios() {
    const { scenarios } = await api('GET', '/sandbox/scenarios');
    catalogue = scenarios;
    const sel = $('#sc-kind');
    const keep = sel.value;
    sel.replaceChildren(h('option', { value: '' }, 'Everything'), h('option', { value: '*faults' }, 'Scenarios with faults'),
      ...[...new Set(scenarios.map((s) => s.applies_to))].sort().map((k) => h('option', { value: k }, k)));
    sel.value = keep;
    renderScenarios();
  }

  function renderScenarios() {
    const kind = $('#sc-kind').value;
    const rows = catalogue.filter((s) => !kind || s.applies_to === kind || (kind === '*faults' && s.faults > 0)).map((s) => h('tr', { dataset: { id: s.id } },
      h('td', {}, h('code', {}, s.id), h('br'), s.title),
      h('td', {}, s.applies_to, s.default ? h('span', { class: 'hint' }, ' (default)') : ''),
      h('td', { class: 'trigger' }, breakable(s.trigger || '')),
      h('td', {}, String(s.steps)),
      h('td', {}, String(s.faults)),
      h('td', { class: 'actions' }, s.faults > 0 ? h('button', {
        type: 'button', dataset: { focusKey: 'activate:' + s.id }, 'aria-label': `Activate the faults of ${s.id}`,
        onclick: () => activate(s.id),
      }, 'Activate') : '')));
    rebuild($('#scenarios-table tbody'), rows.length ? rows : [emptyRow(6, 'No scenarios.')]);
  }

  async function activate(id) {
    const status = $('#scenarios-status');
    const client = $('#sc-app').value;
    try {
      await api('POST', `/sandbox/scenarios/${encodeURIComponent(id)}/activate`, client ? { clientId: client } : {});
      say(status, `Faults of ${id} active for ${client || 'every app'}.`, 'ok');
      state.last.faults = '';
      await loadFaults();
    } catch (e) {
      say(status, `Could not activate ${id}: ${e.message}`, 'error');
    }
  }

  async function deactivate(id, client) {
    const status = $('#scenarios-status');
    try {
      await api('DELETE', `/sandbox/scenarios/${encodeURIComponent(id)}/activate` + (client ? '?clientId=' + encodeURIComponent(client) : ''));
      say(status, `Faults of ${id} off for ${client || 'every app'}.`, 'ok');
      state.last.faults = '';
      await loadFaults();
    } catch (e) {
      say(status, `Could not deactivate ${id}: ${e.message}`, 'error');
    }
  }

  async function loadFaults() {
    const data = await fresh('faults', () => api('GET', '/sandbox/faults'));
    if (!data) return;
    const { active } = data;
    const json = JSON.stringify(active);
    if (state.last.faults === json) return;
    state.last.faults = json;
    const rows = active.map((a) => h('tr', { dataset: { scenario: a.scenario } },
      h('td', {}, h('code', {}, a.scenario)),
      h('td', {}, a.clientId || 'every app'),
      h('td', {}, timeEl(a.since)),
      h('td', {}, h('ul', { class: 'plain' }, (a.faults || []).map((f) => h('li', {},
        h('code', {}, f.action), ` used ${f.used}${f.times ? ' of ' + f.times : ''} `, f.spent ? badge('spent') : badge('armed'))))),
      h('td', { class: 'actions' }, h('button', {
        type: 'button', dataset: { focusKey: 'deactivate:' + a.scenario + ':' + (a.clientId || '') },
        'aria-label': `Deactivate ${a.scenario} for ${a.clientId || 'every app'}`,
        onclick: () => deactivate(a.scenario, a.clientId || ''),
      }, 'Deactivate'))));
    rebuild($('#faults-table tbody'), rows.length ? rows : [emptyRow(5, 'No faults active: the sandbox behaves.')]);
  }

  async function loadBindings() {
    const data = await fresh('bindings', () => api('GET', '/sandbox/scenarios/bindings'));
    if (!data) return;
    const { bindings } = data;
    const json = JSON.stringify(bindings);
    if (state.last.bindings === json) return;
    state.last.bindings = json;
    const rows = bindings.slice(0, 50).map((b) => h('tr', { dataset: { scenario: b.scenario, kind: b.kind } },
      h('td', {}, String(b.id)),
      h('td', {}, h('code', {}, b.scenario)),
      h('td', {}, b.kind, ' ', h('code', {}, b.ref || b.key)),
      h('td', {}, clientOf(b.appId)),
      h('td', {}, b.how),
      h('td', {}, badge(b.status), ` ${(b.log || []).length} step${(b.log || []).length === 1 ? '' : 's'} run`),
      h('td', {}, b.nextAt ? timeEl(b.nextAt) : b.waitingFor ? 'waits for ' + b.waitingFor : '—')));
    rebuild($('#bindings-table tbody'), rows.length ? rows : [emptyRow(7, 'No resource is driven by a scenario yet.')]);
  }

  // ---- refresh ----
  // Events say something changed: resources, deliveries and bindings are
  // read again shortly after, once for a burst.
  let soon = null;
  function refreshSoon() {
    if (!state.live || soon) return;
    soon = setTimeout(() => {
      soon = null;
      run(loadResources, loadDeliveries, loadBindings, loadClock);
    }, 300);
  }

  function run(...loaders) {
    return Promise.all(loaders.map((f) => f().catch((e) => {
      if (!(e instanceof APIError)) return; // offline: the banner says it
      console.warn(f.name, e.message);
    })));
  }

  // Retries, scenario steps and the interaction log move without a word on
  // the stream, so the views are also read every few seconds.
  function tick() {
    if (!state.live || document.hidden) return;
    run(loadClock, loadResources, loadDeliveries, loadInteractions, loadFaults, loadBindings).then(openStream);
  }

  function setLive(on) {
    state.live = on;
    if (on) {
      for (const e of paused.splice(0)) addEvent(e);
      updateEventCount();
      tick();
    } else {
      updateEventCount();
    }
  }

  function init() {
    $('#signin').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      $('#signin-error').textContent = '';
      const operator = $('#signin-token').value.trim();
      if (operator) {
        token = operator;
        sessionStorage.setItem(TOKEN_KEY, token);
      } else {
        // A portal login: the session is an HttpOnly cookie this page
        // never sees; every later request carries it, the token none.
        try {
          token = '';
          sessionStorage.removeItem(TOKEN_KEY);
          await api('POST', '/portal/login', { email: $('#signin-email').value.trim(), password: $('#signin-password').value });
        } catch (e) {
          $('#signin-error').textContent = e.status === 401 ? 'Wrong email or password.' : `The sandbox refused the login: ${e.message}`;
          $('#signin').hidden = false;
          return;
        }
      }
      $('#signin-password').value = '';
      $('#signin').hidden = true;
      // Whoever signed in now has a stream of their own to open.
      streamWasOpen = false;
      run(loadApps).then(() => {
        run(loadClock, loadResources, loadDeliveries, loadInteractions, loadScenarios, loadFaults, loadBindings);
        reconnect();
      });
    });
    for (const b of $$('[data-advance]')) b.addEventListener('click', () => advance(b.dataset.advance));
    $('#advance-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const by = $('#advance-by').value.trim();
      if (by) advance(by);
    });
    $('#apps-refresh').addEventListener('click', () => run(loadApps));
    $('#live').addEventListener('change', (ev) => setLive(ev.currentTarget.checked));
    const onChange = (form, f) => {
      form.addEventListener('submit', (ev) => { ev.preventDefault(); f(); });
      form.addEventListener('change', () => f());
    };
    onChange($('#resources-form'), () => { state.last.resources = ''; run(loadResources); });
    onChange($('#deliveries-form'), () => { state.last.deliveries = ''; run(loadDeliveries); });
    onChange($('#interactions-form'), () => { state.last.interactions = ''; run(loadInteractions); });
    $('#scenarios-form').addEventListener('submit', (ev) => ev.preventDefault());
    $('#exp-since').value = localInput(new Date(Date.now() - 30 * 60000));
    $('#export-form').addEventListener('submit', (ev) => { ev.preventDefault(); exportFeature(); });
    $('#sc-kind').addEventListener('change', renderScenarios);
    $('#events-form').addEventListener('submit', (ev) => { ev.preventDefault(); reconnect(); });
    $('#ev-company').addEventListener('change', (ev) => {
      reconnect();
      const cnpj = ev.currentTarget.value;
      const co = cnpj ? clockCompanies().find((x) => x.cnpj === cnpj && !x.namespace) : null;
      if (!cnpj || co) showClockOf(co ? co.id : '');
    });
    $('#clock-company').addEventListener('change', (ev) => showClockOf(ev.currentTarget.value));

    setInterval(renderClock, 1000);
    setInterval(tick, 3000);
    document.addEventListener('visibilitychange', tick);
    updateEventCount();
    // Apps first: the other views, and the events, name apps and companies.
    run(loadApps).then(() => {
      run(loadClock, loadResources, loadDeliveries, loadInteractions, loadScenarios, loadFaults, loadBindings);
      openStream();
    });
  }

  init();
})();

#!/usr/bin/env python3
"""Corretora Exemplo: the Pix charges of its back office, as one small app.

An example integration of the API Pix v2 (charges, webhook, reconciliation;
Pix Automático subscriptions) written the way a careful partner writes one,
in Python 3's standard library only. It serves:

    GET  /health                        readiness probe
    POST /internal/pix/setup            {"pixKey"}: token + Pix webhook, and the
                                        Pix Automático webhooks rec and cobr (onboarding)
    POST /internal/charges              {"amount", "pixKey"?, "customer"?, "description"?,
                                        "dueDate"? (YYYY-MM-DD: a due-date charge, cobv;
                                        needs customer and PIX_DUE_DATES)}
                                        -> {"charge": {"id" (the txid), ...}}
    POST /internal/charges/batch        {"dueDate", "pixKey"?, "charges": [{"amount", "customer"}]}
                                        due-date charges sent as one batch (lotecobv; needs
                                        PIX_DUE_DATES) -> {"batch": {"id", "charges": [...]}}
    POST /internal/pix/reconcile        {"from", "to"} (RFC 3339): the Pix received in the
                                        period, read from the PSP's listing page by page;
                                        those of no charge of ours set aside
                                        -> {"received": n, "unmatched": n}
    POST /internal/refunds              {"paymentId" (endToEndId), "amount", "reason"?}
                                        -> {"refund": {"id", "status", ...}}
    POST /internal/subscriptions        {"customer": {"taxId", "name", "account"}, "amount",
                                        "startDate"?, "description"?, "reference"?}
                                        (Idempotency-Key header: a retry resumes, never doubles)
                                        -> {"subscription": {"idRec", "status", ...}}
    POST /internal/subscriptions/{idRec}/charges  {"period": "YYYY-MM"}: that month's charge
    POST /internal/subscriptions/{idRec}/cancel   the recurrence cancelled at the PSP
    GET  /internal/ledger               what was charged, received, settled, refunded,
                                        subscribed
    POST <PIX_WEBHOOK_PATH>/pix         the PSP's Pix callback (signed; verified)
    POST <PIX_WEBHOOK_PATH>/rec         the PSP's recurrence callback (signed; verified)
    POST <PIX_WEBHOOK_PATH>/cobr        the PSP's recurring-charge callback (signed; verified)

Configuration (environment):

    PIX_API_URL          the PSP's base URL (the sandbox): {PIX_API_URL}/oauth/token, /pix/v2/...
    PIX_CLIENT_ID        OAuth2 client credentials of the app
    PIX_CLIENT_SECRET
    PIX_WEBHOOK_SECRET   the app's webhook signing secret (Homologa-Signature)
    PIX_KEY              the app's Pix key (default key of setup and charges)
    LISTEN_HOST          default 127.0.0.1
    LISTEN_PORT          default 8000
    PUBLIC_URL           where the PSP reaches this app (default http://LISTEN_HOST:LISTEN_PORT)
    PIX_WEBHOOK_PATH     default /hooks/psp/pix
    CHARGE_EXPIRY_SECONDS  default 3600
    PIX_ACCOUNT_NUMBER   our account at the PSP that receives Pix Automático (conta;
                         required for subscriptions)
    PIX_ACCOUNT_BRANCH   its branch (agencia), if the PSP uses one
    PIX_ACCOUNT_TYPE     CORRENTE (default), POUPANCA or PAGAMENTO
    PIX_DUE_DATES        "true": charges may have a due date (cobv), one by one or
                         in batches (lotecobv), and the token asks for cobv.write
                         and lotecobv.write (default: immediate charges only)

State is kept in memory: a real integration keeps it in its database.
"""

import base64
import email.utils
import hashlib
import hmac
import http.client
import json
import os
import queue
import random
import re
import secrets
import signal
import string
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Only what the integration uses: create and read charges, refund Pix and
# read the refunds, configure the Pix webhook; for Pix Automático, create,
# read and cancel recurrences, ask the payer to confirm them (read back
# through the recurrence), create and read recurring charges, configure the
# rec and cobr webhooks; due-date charges only when configured
# (PIX_DUE_DATES). No locations, no insurance. An app whose contract has
# no Pix Automático (its scopes refused) still runs the Pix charges.
PIX_SCOPES = "cob.read cob.write pix.read pix.write webhook.write"
DUE_DATE_SCOPES = "cobv.write lotecobv.write"
AUTO_SCOPES = "rec.read rec.write solicrec.write cobr.read cobr.write webhookrec.write webhookcobr.write"

SIGNATURE_HEADER = "Homologa-Signature"
SIGNATURE_TOLERANCE = 300  # seconds either side of our clock

MAX_ATTEMPTS = 5  # per logical call to the PSP
BASE_BACKOFF = 0.5  # seconds before the 2nd attempt; doubles, with jitter
MAX_BACKOFF = 8.0
MAX_RETRY_AFTER = 15.0  # a longer Retry-After ends the call (the budget below)
CALL_BUDGET = 20.0  # seconds one logical call may take, retries included
ATTEMPT_TIMEOUT = 5.0  # seconds per attempt

MAX_BODY = 1 << 20
TXID_ALPHABET = string.ascii_letters + string.digits
ANY_TXID_RE = re.compile(r"^[A-Za-z0-9]{1,35}$")
E2E_RE = re.compile(r"^[A-Za-z0-9]{32}$")
CENT = Decimal("0.01")

# Pix Automático
BRT = timezone(timedelta(hours=-3))  # Brasília, where the PSP's dates are (no DST since 2019)
PERIODICITY = "MENSAL"  # monthly subscriptions, one charge per month
RETRY_POLICY = "NAO_PERMITE"  # the payer's PSP tries once, on the due date; no retries after it
CONFIRMATION_TTL = timedelta(days=7)  # how long the payer has to confirm (solicrec)
DEFAULT_START_DAYS = 3  # a subscription starts this many days from today unless asked otherwise
CHARGE_LEAD_DAYS = 2  # a recurring charge reaches the PSP at least this many days before it is due
IDREC_RE = re.compile(r"^R[RN][0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$")
TXID_RE = re.compile(r"^[A-Za-z0-9]{26,35}$")
ISPB_RE = re.compile(r"^[0-9A-Z]{8}$")
PERIOD_RE = re.compile(r"^(\d{4})-(\d{2})$")
DEAD_COBR = ("REFUSED", "REJEITADA", "CANCELADA", "EXPIRADA")  # a cycle with only these may be charged again
ACCOUNT_TYPES = ("CORRENTE", "POUPANCA", "PAGAMENTO")
RECHECK_DELAYS = (5.0, 30.0, 120.0)  # reading a notified resource back failed: try again after these


def log(fmt, *args):
    stamp = datetime.now(timezone.utc).strftime("%H:%M:%S.%f")[:-3]
    sys.stderr.write(stamp + " " + (fmt % args if args else fmt) + "\n")
    sys.stderr.flush()


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


# ---------------------------------------------------------------- config


class Config:
    def __init__(self, env):
        missing = [n for n in ("PIX_API_URL", "PIX_CLIENT_ID", "PIX_CLIENT_SECRET", "PIX_WEBHOOK_SECRET") if not env.get(n)]
        if missing:
            raise SystemExit("partner.py: set " + ", ".join(missing) + " (see the docstring or README.md)")
        self.api_url = env["PIX_API_URL"].rstrip("/")
        u = urllib.parse.urlsplit(self.api_url)
        if u.scheme not in ("http", "https") or not u.netloc:
            raise SystemExit("partner.py: PIX_API_URL must be an http(s) base URL, got %r" % self.api_url)
        self.client_id = env["PIX_CLIENT_ID"]
        self.client_secret = env["PIX_CLIENT_SECRET"]
        self.webhook_secret = env["PIX_WEBHOOK_SECRET"]
        self.pix_key = normalise_key(env.get("PIX_KEY", ""))
        self.host = env.get("LISTEN_HOST", "127.0.0.1")
        try:
            self.port = int(env.get("LISTEN_PORT", "8000"))
            self.expiry = int(env.get("CHARGE_EXPIRY_SECONDS", "3600"))
        except ValueError as e:
            raise SystemExit("partner.py: LISTEN_PORT and CHARGE_EXPIRY_SECONDS are integers: %s" % e)
        self.public_url = env.get("PUBLIC_URL", "http://%s:%d" % (self.host, self.port)).rstrip("/")
        path = env.get("PIX_WEBHOOK_PATH", "/hooks/psp/pix")
        self.webhook_path = "/" + path.strip("/")
        # Where Pix Automático pays us: our own account at the PSP.
        self.account_number = env.get("PIX_ACCOUNT_NUMBER", "").strip()
        self.account_branch = env.get("PIX_ACCOUNT_BRANCH", "").strip()
        self.account_type = env.get("PIX_ACCOUNT_TYPE", "CORRENTE").strip().upper()
        self.due_dates = env.get("PIX_DUE_DATES", "").strip().lower() in ("1", "true", "yes")
        if self.account_type not in ACCOUNT_TYPES:
            raise SystemExit("partner.py: PIX_ACCOUNT_TYPE is one of %s" % ", ".join(ACCOUNT_TYPES))
        if len(self.account_number) > 20 or len(self.account_branch) > 4:
            raise SystemExit("partner.py: PIX_ACCOUNT_NUMBER has at most 20 characters, PIX_ACCOUNT_BRANCH 4")


# ------------------------------------------------------------ validation


class BadInput(Exception):
    """An action request we cannot act on (answered 422)."""


class Busy(Exception):
    """The same request is still being worked on (answered 409)."""


class NotFound(Exception):
    """An action on something we do not have (answered 404)."""


class Recheck(Exception):
    """A notified resource could not be read back now: read it again later."""


def digits_of(doc, what):
    s = re.sub(r"[.\-/\s]", "", str(doc))
    if not s.isdigit():
        raise BadInput("%s must be a CPF or CNPJ (digits, optionally masked)" % what)
    return s


def _dv(digits, weights):
    r = sum(int(d) * w for d, w in zip(digits, weights)) % 11
    return "0" if r < 2 else str(11 - r)


def valid_cpf(s):
    if len(s) != 11 or s == s[0] * 11:
        return False
    d1 = _dv(s[:9], range(10, 1, -1))
    d2 = _dv(s[:9] + d1, range(11, 1, -1))
    return s[9:] == d1 + d2


def valid_cnpj(s):
    if len(s) != 14 or s == s[0] * 14:
        return False
    w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    d1 = _dv(s[:12], w1)
    d2 = _dv(s[:12] + d1, [6] + w1)
    return s[12:] == d1 + d2


def normalise_key(key):
    """A CPF or CNPJ key goes to the PSP as digits; other keys as they are."""
    key = str(key or "").strip()
    if re.fullmatch(r"\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}", key):
        return re.sub(r"\D", "", key)
    return key


def parse_amount(v):
    if isinstance(v, bool) or v is None or v == "":
        raise BadInput("amount is required, e.g. \"10.00\"")
    try:
        d = Decimal(str(v).strip())
    except InvalidOperation:
        raise BadInput("amount %r is not a number such as \"10.00\"" % (v,))
    if not d.is_finite() or d <= 0 or d != d.quantize(CENT) or d >= Decimal("1e10"):
        raise BadInput("amount %r must be positive, with at most 2 decimals" % (v,))
    return str(d.quantize(CENT))


def customer_of(c):
    """The PSP's devedor from our customer, or None. Our shape is {taxId,
    name}; a caller may use the Pix API's words, {cpf or cnpj, nome}. The
    document goes to the PSP as digits whatever way it was typed."""
    if not c:
        return None
    if not isinstance(c, dict):
        raise BadInput("customer must be an object {taxId, name}")
    tax_id = c.get("taxId") or c.get("cpf") or c.get("cnpj")
    name = str(c.get("name") or c.get("nome") or "").strip()
    if not tax_id and not name:
        return None
    if not tax_id or not name:
        raise BadInput("customer needs both taxId (CPF or CNPJ) and name")
    d = digits_of(tax_id, "customer.taxId")
    if len(d) == 11 and valid_cpf(d):
        return {"cpf": d, "nome": name[:200]}
    if len(d) == 14 and valid_cnpj(d):
        return {"cnpj": d, "nome": name[:200]}
    raise BadInput("customer.taxId is not a valid CPF or CNPJ")


def new_id():
    # 32 of [A-Za-z0-9] from the OS's CSPRNG: a txid (26-35 characters) or
    # a refund id (1-35) of ours, chosen before the first attempt.
    return "".join(secrets.choice(TXID_ALPHABET) for _ in range(32))


def today_brt():
    return datetime.now(BRT).date()


def parse_date(v):
    v = str(v or "").strip()
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        return None
    try:
        return date.fromisoformat(v)
    except ValueError:
        return None


def add_months(d, n):
    """The same day n months after d, or the month's last day when it is
    shorter (31 January + 1 month = 28 or 29 February)."""
    y, m = divmod(d.month - 1 + n, 12)
    y, m = d.year + y, m + 1
    last = (date(y + m // 12, m % 12 + 1, 1) - timedelta(days=1)).day
    return date(y, m, min(d.day, last))


def payer_account_of(c):
    """The payer's account the confirmation request goes to (journey 1):
    {"ispb", "branch"?, "number"} in our words, or the Pix API's
    {"ispbParticipante", "agencia"?, "conta"}."""
    a = c.get("account") if isinstance(c, dict) else None
    if not isinstance(a, dict):
        raise BadInput("customer.account is required: the payer's account {ispb, branch, number}, "
                       "where the confirmation request is sent")
    ispb = str(a.get("ispb") or a.get("ispbParticipante") or "").strip().upper()
    branch = str(a.get("branch") or a.get("agencia") or "").strip()
    number = str(a.get("number") or a.get("conta") or "").strip()
    if not ISPB_RE.match(ispb):
        raise BadInput("customer.account.ispb must be the payer's institution's ISPB (8 digits or capitals)")
    if not number or len(number) > 20:
        raise BadInput("customer.account.number is required (at most 20 characters)")
    if len(branch) > 4:
        raise BadInput("customer.account.branch has at most 4 characters")
    acc = {"ispb": ispb, "number": number}
    if branch:
        acc["branch"] = branch
    return acc


def cycle_of(start, period):
    """The charge cycle (0 = the first) of a monthly subscription starting
    on `start` that falls in the month `period` (YYYY-MM), and its nominal
    due date."""
    m = PERIOD_RE.match(str(period or "").strip())
    if not m or not 1 <= int(m.group(2)) <= 12:
        raise BadInput("period must be a month, YYYY-MM")
    n = (int(m.group(1)) - start.year) * 12 + int(m.group(2)) - start.month
    if n < 0:
        raise BadInput("period %s is before the subscription starts (%s)" % (period, start.isoformat()))
    if n > 1200:
        raise BadInput("period %s is too far ahead" % period)
    return n, add_months(start, n)


# ------------------------------------------------------- the PSP's API


class PspError(Exception):
    """A call to the PSP that did not succeed: no answer after the retries
    (status None) or a final answer not worth retrying."""

    def __init__(self, what, status=None, body=b"", cause=None):
        self.status, self.body = status, body
        detail = "answered %s" % status if status else "failed: %s" % cause
        super().__init__("%s %s" % (what, detail))

    def problem(self):
        return problem_of(self.body)


def problem_of(raw):
    """The PSP's error body (its Problema), for the ledger and our caller."""
    try:
        return json.loads(raw)
    except (ValueError, TypeError):
        return raw[:300].decode("utf-8", "replace") if raw else None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A token must never follow a redirect to another host: 3xx is an answer.
    def redirect_request(self, *args, **kwargs):
        return None


def retry_after(headers):
    v = (headers or {}).get("Retry-After")
    if not v:
        return 0.0
    v = v.strip()
    if v.isdigit():
        return float(v)
    try:
        return max(0.0, email.utils.parsedate_to_datetime(v).timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return 0.0


def retryable(status, headers):
    if status is None:  # no answer: timeout, reset, lost
        return True
    if status >= 500 or status in (408, 429):
        return True
    return status == 409 and bool(headers.get("Retry-After"))


class Answer:
    def __init__(self, status, doc, raw, attempts):
        self.status, self.doc, self.raw, self.attempts = status, doc, raw, attempts


class PixApi:
    """The PSP: one OAuth2 token reused until shortly before it expires,
    every call retried with backoff (honouring Retry-After) when it failed
    in a way a retry can fix."""

    def __init__(self, cfg):
        self.cfg = cfg
        # No proxies from the environment, no redirects.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())
        self._tok_lock = threading.Lock()
        self._token = None
        self._refresh_at = 0.0
        # What we ask for; the Pix scopes alone once Pix Automático is refused.
        self.pix_scopes = PIX_SCOPES + (" " + DUE_DATE_SCOPES if cfg.due_dates else "")
        self.scopes = self.pix_scopes + " " + AUTO_SCOPES
        self.auto_enabled = True  # the token carries the Pix Automático scopes

    def _once(self, method, url, body, headers):
        req = urllib.request.Request(url, data=body, method=method, headers=headers)
        try:
            with self._opener.open(req, timeout=ATTEMPT_TIMEOUT) as resp:
                return resp.status, resp.headers, resp.read(MAX_BODY)
        except urllib.error.HTTPError as e:
            with e:
                return e.code, e.headers, e.read(MAX_BODY)

    def _with_retries(self, what, attempt_fn):
        """attempt_fn() -> (status, headers, body); raises OSError or
        HTTPException when there was no answer. Answers the last answer and
        how many attempts it took."""
        deadline = time.monotonic() + CALL_BUDGET
        for attempt in range(1, MAX_ATTEMPTS + 1):
            status, headers, body, cause = None, {}, b"", None
            try:
                status, headers, body = attempt_fn()
                log("%s attempt=%d status=%d", what, attempt, status)
            except (OSError, http.client.HTTPException) as e:
                cause = e
                log("%s attempt=%d no answer: %s", what, attempt, e.__class__.__name__)
            if not retryable(status, headers):
                return status, headers, body, attempt
            backoff = min(MAX_BACKOFF, BASE_BACKOFF * 2 ** (attempt - 1)) * random.uniform(0.8, 1.2)
            ra = retry_after(headers)
            wait = max(backoff, ra)
            if attempt == MAX_ATTEMPTS or ra > MAX_RETRY_AFTER or time.monotonic() + wait > deadline:
                raise PspError(what, status, body, cause)
            time.sleep(wait)
        raise AssertionError("unreachable")

    # -- token

    def token(self, stale=None):
        """The app's token: the cached one unless it is about to expire or
        is the one the PSP just refused (stale)."""
        with self._tok_lock:
            if self._token and self._token != stale and time.monotonic() < self._refresh_at:
                return self._token
            basic = "%s:%s" % (urllib.parse.quote_plus(self.cfg.client_id), urllib.parse.quote_plus(self.cfg.client_secret))
            headers = {
                "Authorization": "Basic " + base64.b64encode(basic.encode()).decode(),
                "Content-Type": "application/x-www-form-urlencoded",
                "Accept": "application/json",
            }
            while True:
                form = urllib.parse.urlencode({"grant_type": "client_credentials", "scope": self.scopes}).encode()
                status, _, body, _ = self._with_retries(
                    "POST /oauth/token", lambda: self._once("POST", self.cfg.api_url + "/oauth/token", form, headers))
                err = problem_of(body) if status == 400 else None
                if isinstance(err, dict) and err.get("error") == "invalid_scope" and self.scopes != self.pix_scopes:
                    # Not a wrong secret: the app's contract lacks Pix
                    # Automático. Ask once more for the Pix scopes alone.
                    log("Pix Automático scopes refused (%s): Pix charges only", err.get("error_description"))
                    self.scopes, self.auto_enabled = self.pix_scopes, False
                    continue
                break
            if status != 200:
                # A refused secret is not retried: every failure counts
                # toward the PSP's lockout.
                raise PspError("POST /oauth/token", status, body)
            tok = json.loads(body)
            life = float(tok.get("expires_in") or 300)
            granted = set(str(tok.get("scope", self.scopes)).split())
            if not set(self.scopes.split()) <= granted:
                log("token granted fewer scopes than asked: %s", " ".join(sorted(granted)))
            self.auto_enabled = set(AUTO_SCOPES.split()) <= granted
            self._token = tok["access_token"]
            # Refresh a minute early (or at half-life, for short tokens).
            self._refresh_at = time.monotonic() + max(life - 60, life / 2)
            log("token obtained, valid %ds, scopes %s", int(life), tok.get("scope", self.scopes))
            return self._token

    # -- API calls

    def call(self, method, path, doc=None, extra_headers=None):
        """One logical call, retried: an Answer (status, doc, raw, attempts)."""
        what = "%s %s" % (method, path)
        body = json.dumps(doc, separators=(",", ":")).encode() if doc is not None else None
        def attempt():
            # A 401 means the token expired early (the PSP's clock runs its
            # own way) or was revoked: get a new one and send once more.
            refused = None
            for _ in range(2):
                tok = self.token(stale=refused)
                headers = {"Authorization": "Bearer " + tok, "Accept": "application/json"}
                if body is not None:
                    headers["Content-Type"] = "application/json"
                headers.update(extra_headers or {})
                status, h, b = self._once(method, self.cfg.api_url + path, body, headers)
                if status != 401:
                    break
                refused = tok
                log("%s: token refused (401), getting a new one", what)
            return status, h, b

        status, _, b, attempts = self._with_retries(what, attempt)
        try:
            doc = json.loads(b) if b else None
        except ValueError:
            doc = None
        return Answer(status, doc, b, attempts)


# ---------------------------------------------------------------- ledger


def _update(record, fields):
    """Set fields of a ledger record; None removes one (a cleared error)."""
    for k, v in fields.items():
        if v is None:
            record.pop(k, None)
        else:
            record[k] = v
    record["updatedAt"] = now_iso()


class Ledger:
    """What the back office knows: the charges it made; the Pix it received,
    each endToEndId once, booked against its charge only when it pays what
    the charge asks (any other amount is a discrepancy for a person to
    handle); the charges reconciled with the PSP; the refunds it asked and
    how they ended."""

    def __init__(self):
        self.lock = threading.Lock()
        self.charges = {}  # txid -> charge
        self.order = []  # txids, in creation order
        self.bookings = []  # payments that settle their charge
        self.discrepancies = []  # payments of another amount: not booked
        self.seen_e2e = set()  # endToEndIds booked or set aside
        self.in_flight = set()  # endToEndIds being reconciled
        self.refunds = {}  # refund id -> refund
        self.unmatched = []
        self.webhooks = {}  # pix key -> url registered
        # Pix Automático
        self.subs = {}  # our contract id (vinculo.contrato) -> subscription
        self.sub_order = []  # contracts, in creation order
        self.by_rec = {}  # idRec -> contract
        self.sub_requests = {}  # our caller's Idempotency-Key -> (request fingerprint, contract)
        self.sub_keys = {}  # contract -> the Idempotency-Keys of its POST /rec and POST /solicrec
        self.sub_busy = set()  # contracts whose creation is running
        self.cobrs = {}  # txid -> recurring charge
        self.sending = set()  # txids whose PUT /cobr is on its way
        self.auto_webhooks = {}  # "rec" / "cobr" -> url registered

    def new_charge(self, txid, amount, key, customer):
        with self.lock:
            self.charges[txid] = {"id": txid, "amount": amount, "pixKey": key, "customer": customer,
                                  "status": "CREATING", "createdAt": now_iso()}
            self.order.append(txid)

    def update_charge(self, txid, **fields):
        with self.lock:
            c = self.charges.get(txid)
            if c is not None:
                c.update(fields)
                return dict(c)

    def charge(self, txid):
        with self.lock:
            c = self.charges.get(txid)
            return dict(c) if c else None

    def claim(self, e2e):
        """True for the first notification of an endToEndId: the caller
        reconciles it; a duplicate (done or in progress) is ignored."""
        with self.lock:
            if e2e in self.seen_e2e or e2e in self.in_flight:
                return False
            self.in_flight.add(e2e)
            return True

    def release(self, e2e):
        # Reconciliation failed: a redelivery of the notification may try again.
        with self.lock:
            self.in_flight.discard(e2e)

    def settle(self, e2e, txid, amount, at):
        """The Pix pays what its charge asks: booked, the charge settled."""
        with self.lock:
            self.in_flight.discard(e2e)
            if e2e in self.seen_e2e:
                return
            self.seen_e2e.add(e2e)
            self.bookings.append({"e2eId": e2e, "chargeId": txid, "amount": amount, "receivedAt": at})
            self._reconciled(txid, "SETTLED")

    def set_aside(self, e2e, txid, amount, expected, at, psp_status):
        """The Pix pays another amount (or the charge is not CONCLUIDA):
        not booked against the charge, kept for a person to decide."""
        with self.lock:
            self.in_flight.discard(e2e)
            if e2e in self.seen_e2e:
                return
            self.seen_e2e.add(e2e)
            self.discrepancies.append({"e2eId": e2e, "chargeId": txid, "amount": amount, "expected": expected,
                                       "pspStatus": psp_status, "receivedAt": at})
            self._reconciled(txid, "DISCREPANCY")

    def _reconciled(self, txid, status):
        c = self.charges.get(txid)
        if c is not None:
            c["status"], c["reconciledAt"] = status, now_iso()

    def note_unmatched(self, e2e, txid, reason):
        with self.lock:
            self.in_flight.discard(e2e)
            if not any(u.get("e2eId") == e2e for u in self.unmatched):
                self.unmatched.append({"e2eId": e2e, "txid": txid, "reason": reason, "at": now_iso()})

    def new_refund(self, rid, e2e, amount):
        with self.lock:
            self.refunds[rid] = {"id": rid, "paymentId": e2e, "amount": amount, "status": "REQUESTING",
                                 "requestedAt": now_iso()}

    def update_refund(self, rid, **fields):
        with self.lock:
            r = self.refunds.get(rid)
            if r is not None:
                r.update(fields)
                return dict(r)

    def refund(self, rid):
        with self.lock:
            r = self.refunds.get(rid)
            return dict(r) if r else None

    # -- Pix Automático: subscriptions (recurrences) and their charges

    def begin_subscription(self, req_key, fingerprint, fresh):
        """The subscription a creation request is about: the one an earlier
        request with the same Idempotency-Key began (to resume it), or a new
        one made by fresh(). Answers (contract, subscription copy)."""
        with self.lock:
            known = self.sub_requests.get(req_key) if req_key else None
            if known:
                if known[0] != fingerprint:
                    raise BadInput("Idempotency-Key already used for another subscription request")
                contract = known[1]
            else:
                sub, keys = fresh()
                contract = sub["contract"]
                self.subs[contract] = sub
                self.sub_keys[contract] = keys
                self.sub_order.append(contract)
                if req_key:
                    self.sub_requests[req_key] = (fingerprint, contract)
            if contract in self.sub_busy:
                raise Busy("this subscription is being created by an earlier request; ask again shortly")
            self.sub_busy.add(contract)
            return contract, dict(self.subs[contract])

    def end_subscription(self, contract):
        with self.lock:
            self.sub_busy.discard(contract)

    def psp_keys(self, contract):
        with self.lock:
            return dict(self.sub_keys[contract])

    def update_sub(self, contract, **fields):
        with self.lock:
            sub = self.subs[contract]
            if fields.get("idRec"):
                self.by_rec[fields["idRec"]] = contract
            _update(sub, fields)
            return dict(sub)

    def sub(self, contract):
        with self.lock:
            sub = self.subs.get(contract)
            return dict(sub) if sub else None

    def sub_for_rec(self, id_rec, contract=None):
        """Our subscription of a recurrence: by its idRec, or by the contract
        we sent (a POST /rec whose answer we never got made it)."""
        with self.lock:
            if id_rec in self.by_rec:
                return self.by_rec[id_rec]
            sub = self.subs.get(contract or "")
            if sub is not None and not sub.get("idRec"):
                sub["idRec"] = id_rec
                self.by_rec[id_rec] = contract
                log("recurrence %s is our subscription %s (its creation's answer was lost)", id_rec, contract)
                return contract
            return None

    def apply_rec(self, contract, rec):
        """What the PSP says of our recurrence, read back: its status, the
        journey it was approved by, our confirmation request's status, and
        why it ended."""
        with self.lock:
            sub = self.subs[contract]
            sub["status"] = rec.get("status") or sub["status"]
            jornada = (rec.get("ativacao") or {}).get("tipoJornada")
            if jornada and jornada != "AGUARDANDO_DEFINICAO":
                sub["journey"] = jornada
            conf = sub.get("confirmation") or {}
            for sol in rec.get("solicitacao") or []:
                if isinstance(sol, dict) and sol.get("idSolicRec") and sol.get("idSolicRec") == conf.get("id"):
                    conf = dict(conf, status=sol.get("status", conf.get("status")))
                    sub["confirmation"] = conf
            for a in rec.get("atualizacao") or []:
                if isinstance(a, dict) and a.get("status") == "APROVADA" and not sub.get("approvedAt"):
                    sub["approvedAt"] = a.get("data")
            if rec.get("encerramento"):
                sub["closure"] = rec["encerramento"]
            sub["updatedAt"] = now_iso()
            return dict(sub)

    def claim_cycle(self, contract, cycle, due, amount, renew_dead):
        """The charge of a cycle: the live one we have (send: False), or one
        to send now (send: True), a new one, or one whose PUT never got an
        answer, sent again with the same txid. One sender at a time."""
        with self.lock:
            sub = self.subs[contract]
            mine = [self.cobrs[t] for t in sub["charges"] if self.cobrs[t]["installment"] == cycle + 1]
            live = next((c for c in mine if c["status"] not in DEAD_COBR), None)
            if live is None and mine and not renew_dead:
                live = mine[-1]  # only a person charges a failed cycle again
            if live is None:
                txid = new_id()
                live = {"txid": txid, "idRec": sub["idRec"], "installment": cycle + 1, "dueDate": due.isoformat(),
                        "amount": amount, "status": "CREATING", "createdAt": now_iso()}
                self.cobrs[txid] = live
                sub["charges"].append(txid)
            send = live["status"] in ("CREATING", "UNKNOWN") and live["txid"] not in self.sending
            if send:
                self.sending.add(live["txid"])
            return dict(live), send

    def sent(self, txid):
        with self.lock:
            self.sending.discard(txid)

    def update_cobr(self, txid, **fields):
        with self.lock:
            c = self.cobrs.get(txid)
            if c is not None:
                _update(c, fields)
                return dict(c)

    def cobr(self, txid):
        with self.lock:
            c = self.cobrs.get(txid)
            return dict(c) if c else None

    def book_recurring(self, e2e, txid, id_rec, received, at, psp_status):
        """A Pix the PSP lists in our recurring charge, read back: booked
        once per endToEndId when the charge is CONCLUIDA and the Pix pays
        what it asks; any other case is set aside for a person. Answers
        what happened, or None when the endToEndId was handled before."""
        with self.lock:
            if e2e in self.seen_e2e:
                return None
            self.seen_e2e.add(e2e)
            c = self.cobrs[txid]
            try:
                same = Decimal(received) == Decimal(c["amount"])
            except (InvalidOperation, TypeError):
                same = False
            if same and psp_status == "CONCLUIDA":
                self.bookings.append({"e2eId": e2e, "chargeId": txid, "idRec": id_rec, "amount": received,
                                      "receivedAt": at})
                c["reconciliation"], c["reconciledAt"] = "SETTLED", now_iso()
                return "SETTLED"
            self.discrepancies.append({"e2eId": e2e, "chargeId": txid, "idRec": id_rec, "amount": received,
                                       "expected": c["amount"], "pspStatus": psp_status, "receivedAt": at})
            c["reconciliation"], c["reconciledAt"] = "DISCREPANCY", now_iso()
            return "DISCREPANCY"

    def note_unknown(self, reason, **ids):
        """A notification about something that is not ours: kept for a person."""
        with self.lock:
            if not any(u.get("reason") == reason and all(u.get(k) == v for k, v in ids.items()) for u in self.unmatched):
                self.unmatched.append(dict(ids, reason=reason, at=now_iso()))

    def _sub_view(self, contract):
        sub = dict(self.subs[contract])
        sub["charges"] = [dict(self.cobrs[t]) for t in sub["charges"]]
        return sub

    def subscription(self, contract):
        with self.lock:
            return self._sub_view(contract)

    def snapshot(self):
        with self.lock:
            return {
                "generatedAt": now_iso(),
                "charges": [dict(self.charges[t]) for t in self.order],
                "subscriptions": [self._sub_view(c) for c in self.sub_order],
                "bookings": [dict(b) for b in self.bookings],
                "discrepancies": [dict(d) for d in self.discrepancies],
                "refunds": [dict(r) for r in self.refunds.values()],
                "unmatched": [dict(u) for u in self.unmatched],
                "webhooks": dict(self.webhooks),
                "pixAutomaticoWebhooks": dict(self.auto_webhooks),
            }


# ------------------------------------------------------------------ app


class App:
    def __init__(self, cfg):
        self.cfg = cfg
        self.psp = PixApi(cfg)
        self.ledger = Ledger()
        self.work = queue.Queue()
        # Recurrences and recurring charges are worked on one at a time
        # each: a notification that arrives while its resource is being
        # read makes it read once more afterwards, never twice at once.
        self.sched_lock = threading.Lock()
        self.queued, self.running, self.rerun = set(), set(), set()
        self.hints, self.failures = {}, {}
        self.workers = [threading.Thread(target=self._worker, name="reconcile-%d" % i, daemon=True) for i in range(4)]
        for w in self.workers:
            w.start()

    @property
    def webhook_url(self):
        return self.cfg.public_url + self.cfg.webhook_path

    # -- actions

    def setup(self, req):
        """Onboarding: the token (scoped to what we use) and the Pix webhook,
        before any charge."""
        key = normalise_key(req.get("pixKey") or self.cfg.pix_key)
        if not key:
            raise BadInput("pixKey is required (or set PIX_KEY)")
        self.psp.token()
        ans = self.psp.call("PUT", "/pix/v2/webhook/" + urllib.parse.quote(key, safe=""), {"webhookUrl": self.webhook_url})
        if ans.status // 100 != 2:
            raise PspError("PUT /pix/v2/webhook/{chave}", ans.status, ans.raw)
        with self.ledger.lock:
            self.ledger.webhooks[key] = self.webhook_url
        log("pix webhook for key %s registered at %s", key, self.webhook_url)
        if not self.psp.auto_enabled:
            return {"pixKey": key, "webhook": {"url": self.webhook_url, "registered": True},
                    "pixAutomatico": {"enabled": False, "reason": "the app is not granted its scopes"},
                    "scopes": self.psp.scopes.split()}
        # Pix Automático: one webhook each for recurrences and their charges
        # (per receiving user, no key), at the same base; the PSP appends
        # /rec and /cobr. Before any recurrence exists.
        auto = {}
        for name in ("rec", "cobr"):
            ans = self.psp.call("PUT", "/pix/v2/webhook" + name, {"webhookUrl": self.webhook_url})
            if ans.status // 100 != 2:
                raise PspError("PUT /pix/v2/webhook" + name, ans.status, ans.raw)
            with self.ledger.lock:
                self.ledger.auto_webhooks[name] = self.webhook_url
            auto[name] = {"url": self.webhook_url + "/" + name, "registered": True}
            log("pix automático webhook%s registered at %s (callbacks to %s/%s)", name, self.webhook_url,
                self.webhook_url, name)
        return {"pixKey": key, "webhook": {"url": self.webhook_url, "registered": True},
                "webhookrec": auto["rec"], "webhookcobr": auto["cobr"], "scopes": self.psp.scopes.split()}

    def create_charge(self, req):
        amount = parse_amount(req.get("amount"))
        key = normalise_key(req.get("pixKey") or self.cfg.pix_key)
        if not key:
            raise BadInput("pixKey is required (or set PIX_KEY)")
        devedor = customer_of(req.get("customer"))
        kind, calendario = "cob", {"expiracao": self.cfg.expiry}
        if req.get("dueDate") not in (None, ""):
            # A due-date charge (cobv): the API Pix asks its due date and its
            # payer, and creates it only by PUT /cobv/{txid}.
            due = parse_date(req.get("dueDate"))
            if not self.cfg.due_dates:
                raise BadInput("dueDate: this integration makes immediate charges only (set PIX_DUE_DATES=true)")
            if due is None:
                raise BadInput("dueDate must be a date, YYYY-MM-DD")
            if not devedor:
                raise BadInput("a charge with a dueDate needs its customer {taxId, name}")
            kind, calendario = "cobv", {"dataDeVencimento": due.isoformat()}
        cob = {"calendario": calendario, "valor": {"original": amount}, "chave": key}
        if devedor:
            cob["devedor"] = devedor
        desc = str(req.get("description") or "").strip()
        if desc:
            cob["solicitacaoPagador"] = desc[:140]
        # The txid is ours, chosen before the first attempt and kept for
        # every retry: a retried PUT of one txid never makes a second charge.
        txid = new_id()
        self.ledger.new_charge(txid, amount, key, devedor)
        try:
            ans = self.psp.call("PUT", "/pix/v2/%s/%s" % (kind, txid), cob)
        except PspError:
            # Unknown outcome: the charge may exist; the txid lets us ask later.
            self.ledger.update_charge(txid, status="UNKNOWN")
            raise
        if ans.status not in (200, 201):
            self.ledger.update_charge(txid, status="REFUSED")
            raise PspError("PUT /pix/v2/%s/{txid}" % kind, ans.status, ans.raw)
        doc = ans.doc or {}
        c = self.ledger.update_charge(txid, status=doc.get("status", "ATIVA"), brCode=doc.get("pixCopiaECola"),
                                      location=doc.get("location"), revision=doc.get("revisao"))
        log("charge %s of %s created (%s)", txid, amount, c["status"])
        return {"charge": c}

    def create_batch(self, req):
        """Due-date charges sent as one batch (PUT /lotecobv/{id}). The
        batch's id and every txid are ours, chosen once: a retry sends the
        same batch again, which the PSP takes as the same, never a second
        set of charges."""
        if not self.cfg.due_dates:
            raise BadInput("this integration makes immediate charges only (set PIX_DUE_DATES=true)")
        due = parse_date(req.get("dueDate"))
        if due is None:
            raise BadInput("dueDate must be a date, YYYY-MM-DD")
        key = normalise_key(req.get("pixKey") or self.cfg.pix_key)
        if not key:
            raise BadInput("pixKey is required (or set PIX_KEY)")
        items = req.get("charges")
        if not isinstance(items, list) or not items or len(items) > 1000:
            raise BadInput("charges must be a list of 1 to 1000 {amount, customer}")
        cobs, txids = [], []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise BadInput("charges[%d] must be an object {amount, customer}" % i)
            amount = parse_amount(item.get("amount", item.get("valor")))
            devedor = customer_of(item.get("customer") or item.get("devedor"))
            if not devedor:
                raise BadInput("charges[%d] needs its customer {taxId, name}" % i)
            txid = new_id()
            txids.append(txid)
            cobs.append({"txid": txid, "calendario": {"dataDeVencimento": due.isoformat()},
                         "valor": {"original": amount}, "chave": key, "devedor": devedor})
        batch_id = str(secrets.randbelow(2 ** 53) + 1)
        for cob in cobs:
            self.ledger.new_charge(cob["txid"], cob["valor"]["original"], key, cob["devedor"])
        try:
            ans = self.psp.call("PUT", "/pix/v2/lotecobv/" + batch_id,
                                {"descricao": "Corretora Exemplo, vencimento %s" % due.isoformat(), "cobsv": cobs})
        except PspError:
            for txid in txids:
                self.ledger.update_charge(txid, status="UNKNOWN")
            raise
        if ans.status != 202:
            for txid in txids:
                self.ledger.update_charge(txid, status="REFUSED")
            raise PspError("PUT /pix/v2/lotecobv/{id}", ans.status, ans.raw)
        # Taken: each charge is made in the background (EM_PROCESSAMENTO,
        # then CRIADA or NEGADA, read with GET /lotecobv/{id}).
        charges = [self.ledger.update_charge(txid, status="SENT", batch=batch_id) for txid in txids]
        log("batch %s of %d due-date charges sent", batch_id, len(charges))
        return {"batch": {"id": batch_id, "charges": charges}}

    def reconcile_period(self, req):
        """The day's reconciliation: every Pix the PSP received for us in
        [from, to], read from GET /pix page by page (50 a page, until
        parametros.paginacao.quantidadeDePaginas), each of no charge of
        ours set aside for a person."""
        start, end = str(req.get("from") or "").strip(), str(req.get("to") or "").strip()
        for name, v in (("from", start), ("to", end)):
            try:
                datetime.fromisoformat(v.replace("Z", "+00:00"))
            except ValueError:
                raise BadInput("%s must be a date and time, RFC 3339" % name)
        received = unmatched = 0
        page, pages = 0, 1
        while page < pages and page < 1000:
            query = urllib.parse.urlencode({"inicio": start, "fim": end, "paginacao.paginaAtual": page,
                                            "paginacao.itensPorPagina": 50})
            ans = self.psp.call("GET", "/pix/v2/pix?" + query)
            if ans.status != 200 or not isinstance(ans.doc, dict):
                raise PspError("GET /pix/v2/pix", ans.status, ans.raw)
            pages = int(((ans.doc.get("parametros") or {}).get("paginacao") or {}).get("quantidadeDePaginas") or 0)
            for px in ans.doc.get("pix") or []:
                received += 1
                txid, e2e = px.get("txid") or "", px.get("endToEndId") or ""
                if e2e and not (txid and self.ledger.charge(txid)):
                    self.ledger.note_unmatched(e2e, txid, "received with no charge of ours (reconciliation)")
                    unmatched += 1
            page += 1
        log("reconciled %s to %s: %d Pix received, %d set aside", start, end, received, unmatched)
        return {"received": received, "unmatched": unmatched}

    def create_refund(self, req):
        e2e = str(req.get("paymentId") or "").strip()
        if not E2E_RE.match(e2e):
            raise BadInput("paymentId must be the Pix's endToEndId (32 letters and digits)")
        amount = parse_amount(req.get("amount"))
        body = {"valor": amount}
        reason = str(req.get("reason") or "").strip()
        if reason:
            body["descricao"] = reason[:140]
        # The refund id is ours, kept for every retry, as the txid is.
        rid = new_id()
        path = "/pix/v2/pix/%s/devolucao/%s" % (e2e, rid)
        self.ledger.new_refund(rid, e2e, amount)
        try:
            ans = self.psp.call("PUT", path, body)
            if ans.status != 201 and ans.attempts > 1 and 400 <= ans.status < 500:
                # A retry refused because the id exists: our lost first
                # attempt made it. Read it rather than guess.
                got = self.psp.call("GET", path)
                if got.status == 200:
                    ans = got
        except PspError:
            self.ledger.update_refund(rid, status="UNKNOWN")
            raise
        if ans.status not in (200, 201):
            self.ledger.update_refund(rid, status="REFUSED")
            raise PspError("PUT /pix/v2/pix/{e2eid}/devolucao/{id}", ans.status, ans.raw)
        doc = ans.doc or {}
        # EM_PROCESSAMENTO until the PSP notifies how it ended.
        r = self.ledger.update_refund(rid, status=doc.get("status", "EM_PROCESSAMENTO"), rtrId=doc.get("rtrId"))
        log("refund %s of %s on %s asked (%s)", rid, amount, e2e, r["status"])
        return {"refund": r}

    # -- Pix Automático: subscriptions

    def create_subscription(self, req, headers):
        """A monthly recurrence of a fixed amount (POST /rec) and its
        confirmation request to the payer's institution (POST /solicrec,
        journey 1). Each call carries an Idempotency-Key chosen once and
        kept for its retries; a request sent again with our caller's own
        Idempotency-Key resumes where the first stopped, never making a
        second recurrence."""
        if not self.cfg.account_number:
            raise BadInput("set PIX_ACCOUNT_NUMBER (and PIX_ACCOUNT_BRANCH): the account Pix Automático pays into")
        self.psp.token()
        if not self.psp.auto_enabled:
            raise BadInput("Pix Automático is not enabled for this app: its token lacks the scopes " + AUTO_SCOPES)
        amount = parse_amount(req.get("amount"))
        cust = req.get("customer")
        devedor = customer_of(cust)
        if not devedor:
            raise BadInput("customer {taxId, name, account} is required")
        devedor["nome"] = devedor["nome"][:140]
        account = payer_account_of(cust)
        start_in = req.get("startDate")
        start = parse_date(start_in) if start_in else today_brt() + timedelta(days=DEFAULT_START_DAYS)
        if start is None:
            raise BadInput("startDate must be a date, YYYY-MM-DD")
        if start <= today_brt():
            raise BadInput("startDate must be after today (Brasília time): the first charge falls due then")
        objeto = str(req.get("description") or "").strip()[:35]
        reference = str(req.get("reference") or "").strip()[:100]
        req_key = str(headers.get("Idempotency-Key") or "").strip()[:200]
        fingerprint = json.dumps([amount, devedor, account, start_in, objeto, reference], sort_keys=True)

        def fresh():
            contract = "CE" + today_brt().strftime("%Y%m%d") + new_id()[:12]
            sub = {"idRec": None, "contract": contract, "reference": reference or None, "status": "CREATING",
                   "customer": devedor, "payerAccount": account, "amount": amount, "periodicity": PERIODICITY,
                   "startDate": start.isoformat(), "retryPolicy": RETRY_POLICY, "journey": None,
                   "confirmation": None, "createdAt": now_iso(), "charges": []}
            return sub, {"rec": new_id(), "solicrec": new_id()}

        contract, sub = self.ledger.begin_subscription(req_key, fingerprint, fresh)
        try:
            if not sub["idRec"]:
                sub = self._post_rec(contract, sub, objeto)
            if sub["status"] == "CRIADA" and not (sub.get("confirmation") or {}).get("id"):
                sub = self._post_solicrec(contract, sub)
            return {"subscription": self.ledger.subscription(contract)}
        except PspError as e:
            e.subscription = self.ledger.subscription(contract)
            raise
        finally:
            self.ledger.end_subscription(contract)

    def _post_rec(self, contract, sub, objeto):
        vinculo = {"contrato": contract, "devedor": sub["customer"]}
        if objeto:
            vinculo["objeto"] = objeto
        body = {"vinculo": vinculo, "calendario": {"dataInicial": sub["startDate"], "periodicidade": PERIODICITY},
                "valor": {"valorRec": sub["amount"]}, "politicaRetentativa": RETRY_POLICY}
        key = self.ledger.psp_keys(contract)["rec"]
        try:
            ans = self.psp.call("POST", "/pix/v2/rec", body, {"Idempotency-Key": key})
        except PspError:
            # Unknown outcome: the recurrence may exist. Sent again with the
            # same key it is answered, not made twice; its notification,
            # which names our contract, finds it too.
            self.ledger.update_sub(contract, status="UNKNOWN")
            raise
        doc = ans.doc if isinstance(ans.doc, dict) else {}
        if ans.status != 201 or not IDREC_RE.match(str(doc.get("idRec", ""))):
            self.ledger.update_sub(contract, status="REFUSED", error=problem_of(ans.raw))
            raise PspError("POST /pix/v2/rec", ans.status, ans.raw)
        sub = self.ledger.update_sub(contract, idRec=doc["idRec"], status=doc.get("status", "CRIADA"), error=None)
        log("subscription %s: recurrence %s of %s a month from %s (%s)", contract, sub["idRec"], sub["amount"],
            sub["startDate"], sub["status"])
        return sub

    def _post_solicrec(self, contract, sub):
        keys = self.ledger.psp_keys(contract)
        body = keys.get("solicrec_body")
        if body is None:
            # Built once: a retry with the same key must send the same body.
            acc, dev = sub["payerAccount"], sub["customer"]
            dest = {"conta": acc["number"], "ispbParticipante": acc["ispb"]}
            if acc.get("branch"):
                dest["agencia"] = acc["branch"]
            dest.update({k: dev[k] for k in ("cpf", "cnpj") if k in dev})
            expires = (datetime.now(timezone.utc) + CONFIRMATION_TTL).replace(microsecond=0)
            body = {"idRec": sub["idRec"], "destinatario": dest,
                    "calendario": {"dataExpiracaoSolicitacao": expires.isoformat().replace("+00:00", "Z")}}
            with self.ledger.lock:
                self.ledger.sub_keys[contract]["solicrec_body"] = body
        try:
            ans = self.psp.call("POST", "/pix/v2/solicrec", body, {"Idempotency-Key": keys["solicrec"]})
        except PspError:
            self.ledger.update_sub(contract, confirmation={"status": "UNKNOWN"})
            raise
        doc = ans.doc if isinstance(ans.doc, dict) else {}
        if ans.status != 201 or not doc.get("idSolicRec"):
            self.ledger.update_sub(contract, confirmation={"status": "REFUSED",
                                                           "error": problem_of(ans.raw)})
            raise PspError("POST /pix/v2/solicrec", ans.status, ans.raw)
        conf = {"id": doc["idSolicRec"], "status": doc.get("status", "CRIADA"),
                "expiresAt": body["calendario"]["dataExpiracaoSolicitacao"]}
        sub = self.ledger.update_sub(contract, confirmation=conf)
        log("subscription %s: confirmation request %s sent to the payer (%s)", contract, conf["id"], conf["status"])
        return sub

    def _ours(self, id_rec):
        contract = self.ledger.sub_for_rec(id_rec) if IDREC_RE.match(id_rec or "") else None
        if contract is None:
            raise NotFound("no subscription of ours has idRec %s" % id_rec)
        return contract

    def charge_period(self, id_rec, req):
        """The charge of one month of an approved subscription (the back
        office's monthly run asks for each month; asking twice for the same
        month answers the same charge)."""
        contract = self._ours(id_rec)
        sub = self.ledger.sub(contract)
        if sub["status"] != "APROVADA":
            raise BadInput("the recurrence is %s: only an approved one is charged" % sub["status"])
        start = parse_date(sub["startDate"])
        cycle, due = cycle_of(start, req.get("period"))
        earliest = today_brt() + timedelta(days=CHARGE_LEAD_DAYS)
        if due < earliest:
            due = earliest
        if due >= add_months(start, cycle + 1):
            raise BadInput("period %s can no longer be charged: its cycle ends on %s" %
                           (req.get("period"), add_months(start, cycle + 1).isoformat()))
        return {"charge": self.send_cobr(contract, cycle, due, renew_dead=True),
                "subscription": self.ledger.subscription(contract)}

    def cancel_subscription(self, id_rec, _req):
        contract = self._ours(id_rec)
        path = "/pix/v2/rec/" + id_rec
        ans = self.psp.call("PATCH", path, {"status": "CANCELADA"})
        if ans.status != 200:
            # Cancelled already (a retry after a lost answer)? Read it.
            got = self.psp.call("GET", path)
            if got.status != 200 or not isinstance(got.doc, dict) or got.doc.get("status") != "CANCELADA":
                raise PspError("PATCH /pix/v2/rec/{idRec}", ans.status, ans.raw)
            ans = got
        sub = self.ledger.apply_rec(contract, ans.doc if isinstance(ans.doc, dict) else {})
        log("subscription %s: recurrence %s %s", contract, id_rec, sub["status"])
        return {"subscription": self.ledger.subscription(contract)}

    def send_cobr(self, contract, cycle, due, renew_dead):
        """PUT /cobr/{txid} of a cycle, with a txid of ours chosen once and
        kept for every retry: one charge per cycle whatever happens."""
        sub = self.ledger.sub(contract)
        charge, send = self.ledger.claim_cycle(contract, cycle, due, sub["amount"], renew_dead)
        if not send:
            return charge
        txid, was = charge["txid"], charge["status"]
        path = "/pix/v2/cobr/" + txid
        body = {"idRec": sub["idRec"], "calendario": {"dataDeVencimento": charge["dueDate"]},
                "valor": {"original": charge["amount"]}, "ajusteDiaUtil": True,
                "recebedor": {"conta": self.cfg.account_number, "tipoConta": self.cfg.account_type},
                "infoAdicional": ("Corretora Exemplo, contrato %s, parcela %d" % (contract, cycle + 1))[:140]}
        if self.cfg.account_branch:
            body["recebedor"]["agencia"] = self.cfg.account_branch
        try:
            try:
                ans = self.psp.call("PUT", path, body)
                if ans.status != 201 and 400 <= ans.status < 500 and (ans.attempts > 1 or was == "UNKNOWN"):
                    # Refused as a txid in use: our own attempt whose answer
                    # was lost made it. Read it rather than guess.
                    got = self.psp.call("GET", path)
                    if got.status == 200 and isinstance(got.doc, dict) and got.doc.get("idRec") == sub["idRec"]:
                        ans = got
            except PspError:
                # Unknown outcome: sent again later with the same txid.
                self.ledger.update_cobr(txid, status="UNKNOWN")
                raise
            doc = ans.doc if isinstance(ans.doc, dict) else {}
            if ans.status not in (200, 201):
                self.ledger.update_cobr(txid, status="REFUSED", error=problem_of(ans.raw))
                raise PspError("PUT /pix/v2/cobr/{txid}", ans.status, ans.raw)
            c = self.ledger.update_cobr(txid, status=doc.get("status", "CRIADA"), error=None,
                                        dueDate=(doc.get("calendario") or {}).get("dataDeVencimento", charge["dueDate"]))
            log("subscription %s: charge %s of %s due %s, installment %d (%s)", contract, txid, c["amount"],
                c["dueDate"], cycle + 1, c["status"])
            return c
        finally:
            self.ledger.sent(txid)

    # -- notifications

    def verify(self, header, body):
        """None when the signature checks out, else why not."""
        if not header:
            return "unsigned"
        ts, sigs = None, []
        for part in header.split(","):
            k, _, v = part.strip().partition("=")
            if k == "t":
                ts = v
            elif k == "v1":
                sigs.append(v)
        if not ts or not ts.isdigit() or not sigs:
            return "malformed signature"
        if abs(time.time() - int(ts)) > SIGNATURE_TOLERANCE:
            return "signature timestamp outside %d s" % SIGNATURE_TOLERANCE
        want = hmac.new(self.cfg.webhook_secret.encode(), ts.encode() + b"." + body, hashlib.sha256).hexdigest()
        if not any(hmac.compare_digest(want.encode(), s.encode("utf-8", "replace")) for s in sigs):
            return "signature does not match"
        return None

    def accept(self, doc):
        """Queue what a verified callback brings; cheap, so the PSP gets its
        answer at once. Each endToEndId is taken once; each refund that
        ended is read back from the PSP."""
        items = doc.get("pix") if isinstance(doc, dict) else None
        if not isinstance(items, list):
            raise BadInput("expected {\"pix\": [...]}")
        for px in items:
            if not isinstance(px, dict):
                continue
            e2e, txid = str(px.get("endToEndId") or ""), str(px.get("txid") or "")
            for dev in px.get("devolucoes") or []:
                rid = str(dev.get("id") or "") if isinstance(dev, dict) else ""
                known = self.ledger.refund(rid) if rid else None
                if rid and E2E_RE.match(e2e) and not (known and known["status"] in ("DEVOLVIDO", "NAO_REALIZADO")):
                    self.work.put(("refund", e2e, rid))
            if not e2e:
                continue
            if self.ledger.claim(e2e):
                self.work.put(("pix", e2e, txid))
            else:
                log("pix %s already handled or in progress: ignored", e2e)

    def accept_rec(self, doc):
        """A verified /rec callback: each recurrence it names is read back
        (on a worker); unknown ones too, to find out whether they are ours."""
        items = doc.get("recs") if isinstance(doc, dict) else None
        if not isinstance(items, list):
            raise BadInput("expected {\"recs\": [...]}")
        for r in items:
            id_rec = str(r.get("idRec") or "") if isinstance(r, dict) else ""
            if IDREC_RE.match(id_rec):
                self.schedule("rec", id_rec)
            else:
                log("rec notification without a usable idRec: ignored")

    def accept_cobr(self, doc):
        """A verified /cobr callback: each recurring charge it names is read
        back (on a worker); what it says is a hint of what to look for."""
        items = doc.get("cobsr") if isinstance(doc, dict) else None
        if not isinstance(items, list):
            raise BadInput("expected {\"cobsr\": [...]}")
        for c in items:
            txid = str(c.get("txid") or "") if isinstance(c, dict) else ""
            if TXID_RE.match(txid):
                self.schedule("cobr", txid, {str(c.get("status"))})
            else:
                log("cobr notification without a usable txid: ignored")

    def schedule(self, kind, key, hints=()):
        k = (kind, key)
        with self.sched_lock:
            if hints:
                self.hints.setdefault(k, set()).update(hints)
            if k in self.running:
                self.rerun.add(k)
                return
            if k in self.queued:
                return
            self.queued.add(k)
        self.work.put((kind, key, None))

    def _run_keyed(self, kind, key):
        k = (kind, key)
        with self.sched_lock:
            self.queued.discard(k)
            self.running.add(k)
            hints = self.hints.pop(k, set())
        ok = False
        try:
            (self.rec_changed if kind == "rec" else self.cobr_changed)(key, hints)
            ok = True
        except (Recheck, PspError) as e:
            log("%s %s: %s", kind, key, e)
        except Exception as e:  # keep the worker alive whatever happens
            log("%s %s failed: %r", kind, key, e)
        with self.sched_lock:
            self.running.discard(k)
            again = k in self.rerun
            self.rerun.discard(k)
            n = 0 if ok else self.failures.get(k, 0) + 1
            if ok:
                self.failures.pop(k, None)
            else:
                self.failures[k] = n
        if again:
            self.schedule(kind, key, hints if not ok else ())
        elif not ok and n <= len(RECHECK_DELAYS):
            # We answered the PSP already: reading back is ours to retry.
            t = threading.Timer(RECHECK_DELAYS[n - 1], self.schedule, (kind, key, hints))
            t.daemon = True
            t.start()
        elif not ok:
            log("%s %s: still unreadable after %d tries; left for a person", kind, key, n)
            if kind == "rec":
                self.ledger.note_unknown("recurrence notified but never read back", idRec=key)
            else:
                self.ledger.note_unknown("recurring charge notified but never read back", txid=key)

    def rec_changed(self, id_rec, _hints):
        """Read the recurrence back and act on what the PSP says, not on
        what the notification said: once it is APROVADA, its first charge."""
        ans = self.psp.call("GET", "/pix/v2/rec/" + id_rec)
        if ans.status == 404:
            self.ledger.note_unknown("recurrence unknown to the PSP", idRec=id_rec)
            log("rec %s: unknown to the PSP; not acted on", id_rec)
            return
        if ans.status != 200 or not isinstance(ans.doc, dict):
            raise Recheck("GET /pix/v2/rec/{idRec} answered %s" % ans.status)
        rec = ans.doc
        contract = self.ledger.sub_for_rec(id_rec, str((rec.get("vinculo") or {}).get("contrato") or ""))
        if contract is None:
            self.ledger.note_unknown("recurrence that is not one of our subscriptions", idRec=id_rec)
            log("rec %s: not one of our subscriptions; acknowledged, not acted on", id_rec)
            return
        sub = self.ledger.apply_rec(contract, rec)
        log("subscription %s: recurrence %s is %s", contract, id_rec, sub["status"])
        if sub["status"] == "APROVADA":
            self.first_charge(contract, sub)

    def first_charge(self, contract, sub):
        """The first cycle's charge, once per approval however many times
        the approval is notified: due on the start date, or, approved late,
        CHARGE_LEAD_DAYS after the approval while the first cycle lasts."""
        start = parse_date(sub["startDate"])
        approved = today_brt()
        try:
            approved = datetime.fromisoformat(str(sub.get("approvedAt")).replace("Z", "+00:00")).astimezone(BRT).date()
        except ValueError:
            pass
        due = max(start, approved + timedelta(days=CHARGE_LEAD_DAYS))
        if due >= add_months(start, 1):
            log("subscription %s: approved after its first cycle ended; no first charge", contract)
            self.ledger.note_unknown("approved after its first cycle ended: charge the next period", idRec=sub["idRec"])
            return
        try:
            self.send_cobr(contract, 0, due, renew_dead=False)
        except PspError as e:
            if e.status is None or e.status >= 500 or e.status in (408, 409, 429):
                raise  # unknown outcome: the same txid is sent again later
            log("subscription %s: first charge refused: %s; left for a person", contract, e)

    def cobr_changed(self, txid, hints):
        """Read the recurring charge back; book each Pix it lists once per
        endToEndId, when the charge is CONCLUIDA and the Pix pays what it
        asks: never on the notification's word alone."""
        ours = self.ledger.cobr(txid)
        for _ in range(3):
            ans = self.psp.call("GET", "/pix/v2/cobr/" + txid)
            if ans.status == 404:
                if ours is None:
                    self.ledger.note_unknown("recurring charge unknown to the PSP", txid=txid)
                    log("cobr %s: unknown to the PSP; not acted on", txid)
                return
            if ans.status != 200 or not isinstance(ans.doc, dict):
                raise Recheck("GET /pix/v2/cobr/{txid} answered %s" % ans.status)
            cobr = ans.doc
            if ours is None or cobr.get("status") == "CONCLUIDA" or "CONCLUIDA" not in hints:
                break
            time.sleep(0.5)  # told it settled: the PSP's read may lag its notification
        if ours is None or cobr.get("idRec") != ours.get("idRec"):
            self.ledger.note_unknown("recurring charge that is not ours", txid=txid, idRec=cobr.get("idRec"))
            log("cobr %s: not one of our charges; acknowledged, not acted on", txid)
            return
        status = cobr.get("status")
        attempts = [{"date": t.get("dataLiquidacao"), "type": t.get("tipo"), "status": t.get("status"),
                     "rejection": (t.get("rejeicao") or {}).get("codigo")}
                    for t in cobr.get("tentativas") or [] if isinstance(t, dict)]
        fields = {"status": status, "attempts": attempts}
        if cobr.get("encerramento"):
            fields["closure"] = cobr["encerramento"]
        self.ledger.update_cobr(txid, **fields)
        log("cobr %s: %s", txid, status)
        for px in cobr.get("pix") or []:
            e2e = str(px.get("endToEndId") or "") if isinstance(px, dict) else ""
            if not E2E_RE.match(e2e):
                continue
            done = self.ledger.book_recurring(e2e, txid, ours["idRec"], str(px.get("valor", "")), px.get("horario"),
                                              status)
            if done == "SETTLED":
                log("pix %s settles recurring charge %s (%s)", e2e, txid, px.get("valor"))
            elif done:
                log("pix %s pays %s for recurring charge %s of %s (%s): set aside, not booked", e2e, px.get("valor"),
                    txid, ours["amount"], status)
        if "CONCLUIDA" in hints and status != "CONCLUIDA":
            raise Recheck("notified CONCLUIDA, read %s" % status)

    def _worker(self):
        while True:
            item = self.work.get()
            if item is None:
                return
            kind, e2e, ref = item
            if kind in ("rec", "cobr"):
                self._run_keyed(kind, e2e)
                continue
            try:
                if kind == "pix":
                    self.reconcile(e2e, ref)
                else:
                    self.refund_ended(e2e, ref)
            except Exception as e:  # keep the worker alive whatever happens
                log("%s %s/%s failed: %r", kind, e2e, ref, e)
                if kind == "pix":
                    self.ledger.release(e2e)

    def reconcile(self, e2e, txid):
        """Read the charge back: the Pix counts only as the PSP lists it in
        the charge, and settles the charge only when it pays the amount the
        charge asks."""
        if not ANY_TXID_RE.match(txid):
            self.ledger.note_unmatched(e2e, txid or None, "Pix without a usable txid")
            return
        entry, cob = None, None
        for _ in range(3):
            try:
                ans = self.psp.call("GET", "/pix/v2/cob/" + txid)
            except PspError as e:
                log("reconcile %s: %s; a redelivery will retry", txid, e)
                self.ledger.release(e2e)
                return
            cob = ans.doc
            if ans.status == 404:
                self.ledger.note_unmatched(e2e, txid, "no such charge at the PSP")
                log("pix %s names charge %s, unknown to the PSP: not booked", e2e, txid)
                return
            if ans.status != 200 or not isinstance(cob, dict):
                self.ledger.release(e2e)
                log("reconcile %s: GET answered %s", txid, ans.status)
                return
            entry = next((p for p in cob.get("pix") or [] if isinstance(p, dict) and p.get("endToEndId") == e2e), None)
            if entry:
                break
            time.sleep(0.5)  # the PSP's read may lag its notification
        if not entry:
            self.ledger.note_unmatched(e2e, txid, "the charge does not list this Pix")
            log("pix %s not listed in charge %s: not booked", e2e, txid)
            return
        received = str(entry.get("valor", ""))
        ours = self.ledger.charge(txid)
        expected = ours["amount"] if ours else str((cob.get("valor") or {}).get("original", ""))
        try:
            same = Decimal(received) == Decimal(expected)
        except InvalidOperation:
            same = False
        if same and cob.get("status") == "CONCLUIDA":
            self.ledger.settle(e2e, txid, received, entry.get("horario"))
            log("pix %s settles charge %s (%s)", e2e, txid, received)
        else:
            self.ledger.set_aside(e2e, txid, received, expected, entry.get("horario"), cob.get("status"))
            log("pix %s pays %s for charge %s of %s (%s): set aside, not booked", e2e, received, txid, expected,
                cob.get("status"))

    def refund_ended(self, e2e, rid):
        """A notification says a refund ended: read it from the PSP."""
        try:
            ans = self.psp.call("GET", "/pix/v2/pix/%s/devolucao/%s" % (e2e, urllib.parse.quote(rid, safe="")))
        except PspError as e:
            log("refund %s: %s", rid, e)
            return
        if ans.status != 200 or not isinstance(ans.doc, dict):
            log("refund %s: GET answered %s", rid, ans.status)
            return
        status = ans.doc.get("status")
        if self.ledger.refund(rid) is None:
            self.ledger.new_refund(rid, e2e, ans.doc.get("valor"))
        self.ledger.update_refund(rid, status=status, endedAt=now_iso(), motivo=ans.doc.get("motivo"))
        log("refund %s on %s: %s", rid, e2e, status)

    def stop(self):
        for _ in self.workers:
            self.work.put(None)
        for w in self.workers:
            w.join(timeout=2)


# ------------------------------------------------------------------ HTTP


class Handler(BaseHTTPRequestHandler):
    server_version = "CorretoraExemplo/1.0"
    app = None  # set in main

    def log_message(self, fmt, *args):  # one line per request, no bodies
        log("http %s", fmt % args)

    def _send(self, status, doc):
        b = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)

    def _body(self, limit):
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            n = -1
        if n < 0 or n > limit:
            return None
        return self.rfile.read(n) if n else b""

    def _json_body(self):
        raw = self._body(64 << 10)
        if raw is None:
            raise BadInput("body missing or too large")
        if not raw.strip():
            return {}
        try:
            doc = json.loads(raw)
        except ValueError as e:
            raise BadInput("malformed JSON: %s" % e)
        if not isinstance(doc, dict):
            raise BadInput("expected a JSON object")
        return doc

    def _action(self, fn, *args):
        try:
            self._send(200, fn(*args, self._json_body()) if args else fn(self._json_body()))
        except BadInput as e:
            self._send(422, {"error": {"code": "invalid_request", "message": str(e)}})
        except NotFound as e:
            self._send(404, {"error": {"code": "not_found", "message": str(e)}})
        except Busy as e:
            self._send(409, {"error": {"code": "in_progress", "message": str(e)}})
        except PspError as e:
            code = 502 if e.status is None or e.status >= 500 else 422
            doc = {"error": {"code": "psp_error", "message": str(e), "psp": e.problem()}}
            if getattr(e, "subscription", None):
                doc["subscription"] = e.subscription  # how far it got: send again to resume
            self._send(code, doc)
        except Exception as e:  # a bug of ours: say so, never drop the connection
            log("action %s failed: %s", self.path, "".join(traceback.format_exception(e)).strip())
            self._send(500, {"error": {"code": "internal", "message": "%s: %s" % (type(e).__name__, e)}})

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/health":
            self._send(200, {"status": "ok"})
        elif path == "/internal/ledger":
            self._send(200, self.app.ledger.snapshot())
        else:
            self._send(404, {"error": {"code": "not_found", "message": path}})

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        hook = self.app.cfg.webhook_path
        if path == "/internal/pix/setup":
            self._action(self.app.setup)
        elif path == "/internal/charges":
            self._action(self.app.create_charge)
        elif path == "/internal/charges/batch":
            self._action(self.app.create_batch)
        elif path == "/internal/pix/reconcile":
            self._action(self.app.reconcile_period)
        elif path == "/internal/refunds":
            self._action(self.app.create_refund)
        elif path == "/internal/subscriptions":
            self._action(lambda req: self.app.create_subscription(req, self.headers))
        elif re.fullmatch(r"/internal/subscriptions/[A-Za-z0-9]+/(charges|cancel)", path):
            _, _, _, id_rec, what = path.split("/")
            self._action(self.app.charge_period if what == "charges" else self.app.cancel_subscription, id_rec)
        elif path in (hook, hook + "/pix"):
            self._notification(self.app.accept)
        elif path == hook + "/rec":
            self._notification(self.app.accept_rec)
        elif path == hook + "/cobr":
            self._notification(self.app.accept_cobr)
        else:
            self._send(404, {"error": {"code": "not_found", "message": path}})

    def _notification(self, accept):
        body = self._body(MAX_BODY)
        if body is None:
            self._send(413, {"error": {"code": "too_large"}})
            return
        why = self.app.verify(self.headers.get(SIGNATURE_HEADER), body)
        if why:
            log("notification refused: %s", why)
            self._send(401, {"error": {"code": "invalid_signature", "message": why}})
            return
        try:
            accept(json.loads(body))
        except (ValueError, BadInput) as e:
            self._send(400, {"error": {"code": "invalid_notification", "message": str(e)}})
            return
        # Acknowledge now, whatever it is about; reconciliation runs on the
        # workers.
        self._send(200, {"received": True})


def main():
    cfg = Config(os.environ)
    app = App(cfg)
    Handler.app = app
    srv = ThreadingHTTPServer((cfg.host, cfg.port), Handler)
    srv.daemon_threads = True

    def stop(signum, _frame):
        log("signal %d: stopping", signum)
        threading.Thread(target=srv.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log("listening on %s:%d; PSP %s; client %s; webhook %s", cfg.host, cfg.port, cfg.api_url, cfg.client_id,
        cfg.public_url + cfg.webhook_path)
    try:
        srv.serve_forever(poll_interval=0.2)
    finally:
        srv.server_close()
        app.stop()


if __name__ == "__main__":
    main()

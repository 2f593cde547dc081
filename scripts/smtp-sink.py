#!/usr/bin/env python3
"""An SMTP server for tests: stores every message it accepts, nothing else.

    python3 scripts/smtp-sink.py --port P --dir D [--starttls --cert C --key K]
                                 [--auth USER:PASS [--auth-mechanisms PLAIN,LOGIN]]

Each message is written to D as the bytes received after DATA (dot-stuffing undone), one
file per message (<n>.eml, written to a temporary name and renamed), with the envelope in
<n>.envelope (MAIL FROM, then one RCPT TO per line). Prints "ready <port>" once listening
(--port 0 picks a free port) and runs until killed (SIGTERM and SIGINT stop it cleanly).

--starttls  advertises STARTTLS with the certificate and key, and requires it before MAIL.
--auth      requires AUTH (PLAIN or LOGIN) with these credentials; wrong ones get 535.
--auth-mechanisms  the mechanisms offered (default PLAIN,LOGIN).

Needs aiosmtpd (pip install aiosmtpd).
"""

import argparse
import asyncio
import itertools
import logging
import os
import signal
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    def __init__(self, directory):
        self.directory = directory
        self.counter = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
        number = next(self.counter)
        base = os.path.join(self.directory, f"{os.getpid()}-{number:05d}")
        self._write(base + ".envelope", "\n".join([envelope.mail_from or ""] + envelope.rcpt_tos).encode() + b"\n")
        self._write(base + ".eml", envelope.original_content or b"")
        return "250 OK stored"

    @staticmethod
    def _write(path, data):
        temporary = path + ".tmp"
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.rename(temporary, path)


def authenticator_for(user, password):
    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (
            mechanism in ("PLAIN", "LOGIN")
            and isinstance(auth_data, LoginPassword)
            and auth_data.login == user.encode()
            and auth_data.password == password.encode()
        )
        # handled=False: aiosmtpd itself answers 535 on failure.
        return AuthResult(success=ok, handled=False)

    return authenticate


def main():
    parser = argparse.ArgumentParser(description="SMTP sink for tests")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--starttls", action="store_true")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--auth", help="USER:PASS")
    parser.add_argument("--auth-mechanisms", default="PLAIN,LOGIN")
    arguments = parser.parse_args()
    if arguments.starttls and not (arguments.cert and arguments.key):
        parser.error("--starttls needs --cert and --key")
    os.makedirs(arguments.dir, exist_ok=True)

    options = {"hostname": "localhost", "ident": "coworkflow-smtp-sink"}
    if arguments.starttls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(arguments.cert, arguments.key)
        options.update(tls_context=context, require_starttls=True)
    if arguments.auth:
        user, _, password = arguments.auth.partition(":")
        options.update(
            authenticator=authenticator_for(user, password),
            auth_required=True,
            auth_exclude_mechanism=[
                name for name in ("PLAIN", "LOGIN") if name not in arguments.auth_mechanisms.upper().split(",")
            ],
            # Without STARTTLS, AUTH must be allowed over plain text (loopback only).
            auth_require_tls=arguments.starttls,
        )
    handler = Sink(arguments.dir)
    # "AUTH without TLS" is the point of --auth without --starttls: no warnings about it.
    warnings.simplefilter("ignore")
    logging.getLogger("mail.log").setLevel(logging.ERROR)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(
        loop.create_server(lambda: SMTP(handler, loop=loop, **options), host=arguments.host, port=arguments.port)
    )
    port = server.sockets[0].getsockname()[1]
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    print(f"ready {port}", flush=True)
    try:
        loop.run_until_complete(stop.wait())
    finally:
        # No wait_closed(): from Python 3.12 it waits for open connections too.
        server.close()
        loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

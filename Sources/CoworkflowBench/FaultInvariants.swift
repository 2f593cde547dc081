import Foundation

/// One invariant the faults harness checks after the load settled: a single SQL statement
/// (no parameters) that returns one text column, one row per violation (nothing when it holds).
struct FaultInvariant: Sendable {
    /// snake_case, e.g. `no_double_booking`.
    let name: String
    let sql: String
}

/// The invariants of the distributed mode, checked from the sources of truth in PostgreSQL: the
/// event log (`events`), `consumer_inbox`, `consumer_redrive`, `subscription_checkpoints` and
/// `personal_data_keys`. Every statement only reads, and each row it returns says what is wrong
/// (ids, streams, versions), never NULL.
///
/// Run them once the load has stopped and everything has settled (the relay and the
/// projections caught up, every queue drained, the timers' next pass done, the provider's
/// notices delivered): several of them (a payment its booking has not seen yet, a refund not
/// concluded yet) are only true at rest.
///
/// How the log is read: ids in payloads are UUIDs Swift wrote in upper case, and stream names
/// carry them in lower case, so ids are compared lower-cased (`substr(stream_id, …)` after the
/// category's `<category>-` prefix); money is integer centavos; the global order is
/// `(tx_id, position)`, the order of one stream its `stream_version`. Queries filter on
/// `category` (index `events_category_order`) and read single streams by `stream_id` (the
/// unique `(stream_id, stream_version)` index); `event_type` has no index, so a filter on it
/// alone scans the table. At 120k events the slowest (`no_double_booking`,
/// `agenda_matches_bookings`) take under a second each.
///
/// Not checked here, because the store guarantees it: an event id twice (`events_event_id_key`),
/// a stream version twice (`events_stream_version_key`), an inbox row twice for one consumer
/// (`consumer_inbox` primary key).
enum FaultInvariants {
    static let all: [FaultInvariant] = [
        streamVersionsGapless,
        bookingLifecycle,
        noDoubleBooking,
        noBookingOverBlock,
        agendaMatchesBookings,
        paymentConfirmedOnce,
        paymentMatchesBooking,
        confirmedBookingPaid,
        refundsMatchBookings,
        refundsConcluded,
        ledgerBalanced,
        invoiceNumbersGapless,
        ledgerEntryPerDocument,
        paymentsInvoicedOnce,
        checkinConsistent,
        emailOnce,
        emailForEveryCause,
        seriesChangesRecorded,
        relayAtHead,
        projectionsAtHead,
        noDeadLetters,
        erasuresDone,
    ]

    // MARK: The log

    /// Every stream is numbered 1, 2, …, N without gaps. The unique `(stream_id, stream_version)`
    /// key forbids a version twice, not a gap; an expected-version append never leaves one, so a
    /// gap means an append that lost part of itself (or a write around the store).
    static let streamVersionsGapless = FaultInvariant(
        name: "stream_versions_gapless",
        sql: #"""
            SELECT format('stream %s holds %s events numbered %s..%s (a stream is numbered 1..N)',
                stream_id, count(*), min(stream_version), max(stream_version))
            FROM events
            GROUP BY stream_id
            HAVING min(stream_version) <> 1 OR max(stream_version) <> count(*)
            """#)

    // MARK: Bookings and agendas

    /// Every booking stream follows the state machine of `Reserva.decider`: ReservaSolicitada
    /// first, then ReservaConfirmada at most once, any number of ReservaRemarcada once confirmed
    /// (only a confirmed booking moves, ADR 0021), and at most one end — ReservaCancelada or
    /// ReservaConcluida after a confirmation, ReservaCancelada or ReservaExpirada before one —
    /// with nothing after it; every event names the stream's own booking. A second confirmation,
    /// a move of a hold or of an ended booking, a cancellation after the end, or a booking
    /// expired after it was paid is a decision taken on a stale state.
    static let bookingLifecycle = FaultInvariant(
        name: "booking_lifecycle",
        sql: #"""
            SELECT format('booking stream %s went %s%s (allowed: Solicitada [> Confirmada [> Remarcada …] [> Cancelada | Concluida]] '
                    || 'or Solicitada > Cancelada | Expirada)',
                stream_id, string_agg(event_type, ' > ' ORDER BY stream_version),
                CASE WHEN bool_or(lower(data->>'reservaId') IS DISTINCT FROM substr(stream_id, 9))
                    THEN ', and an event names another booking' ELSE '' END)
            FROM events
            WHERE category = 'reserva'
            GROUP BY stream_id
            HAVING string_agg(CASE event_type
                        WHEN 'ReservaSolicitada' THEN 'S' WHEN 'ReservaConfirmada' THEN 'C' WHEN 'ReservaCancelada' THEN 'X'
                        WHEN 'ReservaExpirada' THEN 'E' WHEN 'ReservaConcluida' THEN 'K' WHEN 'ReservaRemarcada' THEN 'R' ELSE '?' END,
                    '' ORDER BY stream_version) !~ '^S(CR*[XK]?|[XE])?$'
                OR bool_or(lower(data->>'reservaId') IS DISTINCT FROM substr(stream_id, 9))
            """#)

    /// No double booking, on the agendas (`agenda-<espaco>-<dia>`), which are what holds a slot:
    /// a booking holds its interval on every local day it touches from its AgendaOcupada until an
    /// AgendaLiberada of it on that day (cancelled, expired, declined, no-show; a concluded
    /// booking keeps it). At the moment each AgendaOcupada was appended, the bookings then held
    /// on that day never overlap more than the space allows at any instant: one for every type
    /// but `estacao_compartilhada`, whose limit is its capacity — the greater of the space's
    /// capacity in the global order at that append (EspacoCadastrado / EspacoAtualizado) and the
    /// day's last AgendaCapacidadeDefinida before it, which is never less than the limit the
    /// decider used (`EspacosService.atualizarEspaco` writes a capacity change to the agenda of
    /// every day a booking could still take, and `Agenda.decider` lets the newer one win).
    /// Checked at every append, not only in the final state, so a double booking later
    /// cancelled is still caught. Any instant falls on one local day, and every booking holding
    /// it is on that day's agenda (`agenda_matches_bookings`), so per day is complete. Back-to-
    /// back bookings (one ends when the next starts) do not overlap. A space that was never
    /// registered counts as a room (limit 1).
    static let noDoubleBooking = FaultInvariant(
        name: "no_double_booking",
        sql: #"""
            WITH occ AS (
                SELECT stream_id, stream_version AS v, tx_id, position, lower(data->>'reservaId') AS reserva,
                    lower(data->>'espacoId') AS espaco, data->>'data' AS dia,
                    (data->'intervalo'->>'inicio')::timestamptz AS ini, (data->'intervalo'->>'fim')::timestamptz AS fim
                FROM events
                WHERE category = 'agenda' AND event_type = 'AgendaOcupada'
            ),
            lib AS (
                SELECT stream_id, stream_version AS v, lower(data->>'reservaId') AS reserva
                FROM events
                WHERE category = 'agenda' AND event_type = 'AgendaLiberada'
            ),
            held AS (
                -- For each new occupation e: the occupations still held right after it (itself included)
                -- that overlap it, cut to its interval.
                SELECT e.stream_id, e.v AS ev, o.reserva, greatest(o.ini, e.ini) AS ini, least(o.fim, e.fim) AS fim
                FROM occ AS e
                JOIN occ AS o ON o.stream_id = e.stream_id AND o.v <= e.v AND o.ini < e.fim AND e.ini < o.fim
                WHERE NOT EXISTS (
                    SELECT 1 FROM lib AS l
                    WHERE l.stream_id = o.stream_id AND l.reserva = o.reserva AND l.v > o.v AND l.v < e.v)
            ),
            sweep AS (
                -- Ends sort before starts at the same instant: back-to-back bookings do not overlap.
                SELECT stream_id, ev, t, sum(d) OVER (PARTITION BY stream_id, ev ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS n
                FROM (SELECT stream_id, ev, ini AS t, 1 AS d FROM held UNION ALL SELECT stream_id, ev, fim, -1 FROM held) AS p
            ),
            peak AS (
                SELECT DISTINCT ON (stream_id, ev) stream_id, ev, t, n FROM sweep ORDER BY stream_id, ev, n DESC, t
            ),
            tipo AS (
                SELECT DISTINCT ON (stream_id) substr(stream_id, 8) AS espaco, data->>'tipo' AS tipo
                FROM events
                WHERE category = 'espaco' AND event_type = 'EspacoCadastrado'
                ORDER BY stream_id, stream_version
            ),
            limite AS (
                SELECT e.stream_id, e.v, e.reserva, e.espaco, e.dia, t.tipo,
                    CASE WHEN t.tipo = 'estacao_compartilhada' THEN coalesce(greatest(s.capacidade, a.capacidade), 1) ELSE 1 END AS limite
                FROM occ AS e
                LEFT JOIN tipo AS t ON t.espaco = e.espaco
                LEFT JOIN LATERAL (
                    SELECT (x.data->>'capacidade')::int AS capacidade
                    FROM events AS x
                    WHERE t.tipo = 'estacao_compartilhada' AND x.stream_id = 'espaco-' || e.espaco
                        AND x.event_type IN ('EspacoCadastrado', 'EspacoAtualizado') AND (x.tx_id, x.position) < (e.tx_id, e.position)
                    ORDER BY x.stream_version DESC
                    LIMIT 1
                ) AS s ON true
                LEFT JOIN LATERAL (
                    SELECT (x.data->>'capacidade')::int AS capacidade
                    FROM events AS x
                    WHERE t.tipo = 'estacao_compartilhada' AND x.stream_id = e.stream_id AND x.stream_version < e.v
                        AND x.event_type = 'AgendaCapacidadeDefinida'
                    ORDER BY x.stream_version DESC
                    LIMIT 1
                ) AS a ON true
            )
            SELECT format('space %s (%s, at most %s at once) on %s: %s bookings held it at %s once booking %s was added (%s v%s): %s',
                l.espaco, coalesce(l.tipo, 'never registered'), l.limite, l.dia, p.n,
                to_char(p.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), l.reserva, l.stream_id, l.v,
                (SELECT string_agg(h.reserva, ', ' ORDER BY h.reserva) FROM held AS h
                    WHERE h.stream_id = p.stream_id AND h.ev = p.ev AND h.ini <= p.t AND p.t < h.fim))
            FROM peak AS p
            JOIN limite AS l ON l.stream_id = p.stream_id AND l.v = p.ev
            WHERE p.n > l.limite
            ORDER BY l.stream_id, l.v
            """#)

    /// No booking holds time a block of the space closes (maintenance, holiday): a block and a
    /// booking meet on the same agenda streams, so whichever is appended second while the other
    /// holds an overlapping interval is a violation (a block may still be placed over a booking
    /// that was already over when the block was decided, as `Agenda.decider` allows).
    static let noBookingOverBlock = FaultInvariant(
        name: "no_booking_over_block",
        sql: #"""
            WITH agenda AS (
                SELECT stream_id, stream_version AS v, event_type, data FROM events WHERE category = 'agenda'
            ),
            occ AS (
                SELECT stream_id, v, lower(data->>'reservaId') AS id,
                    (data->'intervalo'->>'inicio')::timestamptz AS ini, (data->'intervalo'->>'fim')::timestamptz AS fim
                FROM agenda WHERE event_type = 'AgendaOcupada'
            ),
            lib AS (SELECT stream_id, v, lower(data->>'reservaId') AS id FROM agenda WHERE event_type = 'AgendaLiberada'),
            blk AS (
                SELECT stream_id, v, lower(data->>'bloqueioId') AS id, (data->>'em')::timestamptz AS em,
                    (data->'intervalo'->>'inicio')::timestamptz AS ini, (data->'intervalo'->>'fim')::timestamptz AS fim
                FROM agenda WHERE event_type = 'AgendaBloqueada'
            ),
            unb AS (SELECT stream_id, v, lower(data->>'bloqueioId') AS id FROM agenda WHERE event_type = 'AgendaDesbloqueada')
            SELECT format('booking %s was added to %s (v%s) while block %s (v%s) closed part of its time', o.id, o.stream_id, o.v, b.id, b.v)
            FROM occ AS o
            JOIN blk AS b ON b.stream_id = o.stream_id AND b.v < o.v AND b.ini < o.fim AND o.ini < b.fim
            WHERE NOT EXISTS (SELECT 1 FROM unb AS u WHERE u.stream_id = b.stream_id AND u.id = b.id AND u.v > b.v AND u.v < o.v)
            UNION ALL
            SELECT format('block %s was added to %s (v%s) over booking %s (v%s), which still held part of that time',
                b.id, b.stream_id, b.v, o.id, o.v)
            FROM blk AS b
            JOIN occ AS o ON o.stream_id = b.stream_id AND o.v < b.v AND b.ini < o.fim AND o.ini < b.fim AND o.fim > b.em
            WHERE NOT EXISTS (SELECT 1 FROM lib AS l WHERE l.stream_id = o.stream_id AND l.id = o.id AND l.v > o.v AND l.v < b.v)
            """#)

    /// The agendas and the bookings agree. A booking holds its time — ReservaSolicitada's
    /// interval and `dias`, or its last ReservaRemarcada's `para` and `dias` — with one
    /// AgendaOcupada on each of those days, for that interval, appended with the event that set
    /// it; a move frees the days it leaves and holds the new time (freed, then held again, on a
    /// day it keeps), so on each agenda a booking's occupations and releases alternate, starting
    /// with an occupation. A booking that ended by ReservaCancelada or ReservaExpirada, or had a
    /// NoShowRegistrado, released every day it held (AgendaLiberada is its agenda's last word on
    /// it), while a booking still held, confirmed or concluded without a no-show holds every day
    /// of its time and none of the days it moved away from. An occupation by a booking that does
    /// not exist, or on a day it never listed, is a slot nobody can free; a live booking without
    /// its occupation is a double booking waiting to happen.
    static let agendaMatchesBookings = FaultInvariant(
        name: "agenda_matches_bookings",
        sql: #"""
            WITH tempo AS (
                -- Each booking's time as its stream says now: its request, or its last move.
                SELECT DISTINCT ON (stream_id) substr(stream_id, 9) AS reserva, lower(data->>'espacoId') AS espaco, data->'dias' AS dias,
                    (coalesce(data->'para', data->'intervalo')->>'inicio')::timestamptz AS ini,
                    (coalesce(data->'para', data->'intervalo')->>'fim')::timestamptz AS fim
                FROM events
                WHERE category = 'reserva' AND event_type IN ('ReservaSolicitada', 'ReservaRemarcada')
                ORDER BY stream_id, stream_version DESC
            ),
            listados AS (
                -- Every day the booking's request or one of its moves listed.
                SELECT DISTINCT substr(e.stream_id, 9) AS reserva, 'agenda-' || lower(e.data->>'espacoId') || '-' || d.dia AS stream_id
                FROM events AS e
                CROSS JOIN LATERAL jsonb_array_elements_text(e.data->'dias') AS d(dia)
                WHERE e.category = 'reserva' AND e.event_type IN ('ReservaSolicitada', 'ReservaRemarcada')
            ),
            ultimo AS (
                SELECT DISTINCT ON (stream_id) substr(stream_id, 9) AS reserva, event_type AS ultimo
                FROM events
                WHERE category = 'reserva'
                ORDER BY stream_id, stream_version DESC
            ),
            noshow AS (
                SELECT DISTINCT lower(data->>'reservaId') AS reserva FROM events WHERE category = 'checkin' AND event_type = 'NoShowRegistrado'
            ),
            expected AS (
                SELECT t.reserva, 'agenda-' || t.espaco || '-' || d.dia AS stream_id, t.ini, t.fim
                FROM tempo AS t
                CROSS JOIN LATERAL jsonb_array_elements_text(t.dias) AS d(dia)
            ),
            actual AS (
                SELECT lower(data->>'reservaId') AS reserva, stream_id,
                    string_agg(CASE event_type WHEN 'AgendaOcupada' THEN 'O' ELSE 'L' END, '' ORDER BY stream_version) AS trilha,
                    (array_agg(event_type ORDER BY stream_version DESC))[1] = 'AgendaOcupada' AS held,
                    (array_agg(data->'intervalo'->>'inicio' ORDER BY stream_version DESC) FILTER (WHERE event_type = 'AgendaOcupada'))[1]::timestamptz AS ini,
                    (array_agg(data->'intervalo'->>'fim' ORDER BY stream_version DESC) FILTER (WHERE event_type = 'AgendaOcupada'))[1]::timestamptz AS fim
                FROM events
                WHERE category = 'agenda' AND event_type IN ('AgendaOcupada', 'AgendaLiberada')
                GROUP BY 1, 2
            ),
            checked AS (
                SELECT coalesce(x.reserva, a.reserva) AS reserva, coalesce(x.stream_id, a.stream_id) AS stream_id,
                    x.stream_id IS NOT NULL AS listed, l.stream_id IS NOT NULL AS ever_listed, a.stream_id IS NOT NULL AS touched,
                    coalesce(a.trilha, '') AS trilha, coalesce(a.held, false) AS held,
                    a.ini IS NOT DISTINCT FROM x.ini AND a.fim IS NOT DISTINCT FROM x.fim AS same_interval,
                    u.ultimo, n.reserva IS NOT NULL AS noshow
                FROM expected AS x
                FULL JOIN actual AS a ON a.reserva = x.reserva AND a.stream_id = x.stream_id
                LEFT JOIN listados AS l ON l.reserva = coalesce(x.reserva, a.reserva) AND l.stream_id = coalesce(x.stream_id, a.stream_id)
                LEFT JOIN ultimo AS u ON u.reserva = coalesce(x.reserva, a.reserva)
                LEFT JOIN noshow AS n ON n.reserva = coalesce(x.reserva, a.reserva)
            ),
            verdict AS (
                SELECT c.*, (c.ultimo IN ('ReservaCancelada', 'ReservaExpirada') OR c.noshow) AS ended FROM checked AS c
            )
            SELECT format('booking %s (last event %s%s) on %s: %s', reserva, coalesce(ultimo, 'none: no such booking'),
                CASE WHEN noshow THEN ', no-show' ELSE '' END, stream_id,
                CASE
                    WHEN NOT ever_listed THEN 'the agenda held it, but the booking never listed this day'
                    WHEN touched AND trilha !~ '^(OL)*O?$' THEN 'its occupations (O) and releases (L) went ' || trilha || ' (they alternate, O first)'
                    WHEN listed AND NOT touched THEN 'the agenda of a day it lists never held it'
                    WHEN NOT listed THEN 'the agenda still holds it on a day it moved away from'
                    WHEN held AND ended THEN 'the agenda still holds it, though the booking ended'
                    WHEN NOT held AND NOT ended THEN 'the agenda released it, though the booking still holds its slot'
                    ELSE 'the agenda holds another interval than the booking''s time'
                END)
            FROM verdict
            WHERE NOT ever_listed
                OR (touched AND trilha !~ '^(OL)*O?$')
                OR (listed AND NOT touched)
                OR (NOT listed AND held)
                OR (listed AND held = ended)
                OR (listed AND touched AND NOT same_interval)
            ORDER BY reserva, stream_id
            """#)

    // MARK: Payments

    /// No booking charged twice: each booking's payment (`pagamento-<reserva>`, whose id is the
    /// booking's) has at most one PagamentoConfirmado (`Pagamento.decider` confirms once), and no
    /// PagamentoConfirmado anywhere else names the same booking.
    static let paymentConfirmedOnce = FaultInvariant(
        name: "payment_confirmed_once",
        sql: #"""
            WITH pago AS (
                SELECT stream_id, stream_version, tx_id, position, lower(data->>'reservaId') AS reserva
                FROM events
                WHERE category = 'pagamento' AND event_type = 'PagamentoConfirmado'
            )
            SELECT format('booking %s was charged %s times: PagamentoConfirmado at %s', reserva, count(*),
                string_agg(stream_id || ' v' || stream_version, ', ' ORDER BY tx_id, position))
            FROM pago
            GROUP BY reserva
            HAVING count(*) > 1
            UNION ALL
            SELECT format('PagamentoConfirmado in %s (v%s) names booking %s, not the booking of its stream', stream_id, stream_version, reserva)
            FROM pago
            WHERE 'pagamento-' || reserva <> stream_id
            """#)

    /// Every PagamentoConfirmado belongs to a booking that exists, for the booking's total, and
    /// that booking either was confirmed with this payment (ReservaConfirmada's `pagamentoId`) or
    /// had ended before it could be (cancelled or expired: the money goes back whole, which
    /// `refunds_match_bookings` checks). A booking still held with a confirmed payment after the
    /// load settled is a PagamentoConfirmado reservas never applied. A booking an operator
    /// confirmed by hand without a payment (`pagamentoId` null) is left alone.
    static let paymentMatchesBooking = FaultInvariant(
        name: "payment_matches_booking",
        sql: #"""
            WITH pago AS (
                SELECT stream_id, stream_version, lower(data->>'reservaId') AS reserva, lower(data->>'pagamentoId') AS pagamento,
                    (data->>'valor')::bigint AS valor
                FROM events
                WHERE category = 'pagamento' AND event_type = 'PagamentoConfirmado'
            ),
            reserva AS (
                SELECT substr(stream_id, 9) AS reserva, (data->>'total')::bigint AS total
                FROM events
                WHERE category = 'reserva' AND event_type = 'ReservaSolicitada'
            ),
            confirmada AS (
                SELECT substr(stream_id, 9) AS reserva, lower(data->>'pagamentoId') AS pagamento
                FROM events
                WHERE category = 'reserva' AND event_type = 'ReservaConfirmada'
            ),
            encerrada AS (
                SELECT DISTINCT substr(stream_id, 9) AS reserva
                FROM events
                WHERE category = 'reserva' AND event_type IN ('ReservaCancelada', 'ReservaExpirada')
            )
            SELECT format('payment %s (%s v%s, %s centavos) for booking %s: %s', p.pagamento, p.stream_id, p.stream_version, p.valor, p.reserva,
                CASE
                    WHEN r.reserva IS NULL THEN 'no such booking'
                    WHEN p.valor <> r.total THEN 'the booking''s total is ' || r.total || ' centavos'
                    WHEN c.reserva IS NOT NULL THEN 'the booking was confirmed with payment ' || c.pagamento
                    ELSE 'the booking was neither confirmed nor ended'
                END)
            FROM pago AS p
            LEFT JOIN reserva AS r ON r.reserva = p.reserva
            LEFT JOIN confirmada AS c ON c.reserva = p.reserva
            LEFT JOIN encerrada AS e ON e.reserva = p.reserva
            WHERE r.reserva IS NULL
                OR p.valor <> r.total
                OR (c.reserva IS NOT NULL AND c.pagamento IS NOT NULL AND c.pagamento <> p.pagamento)
                OR (c.reserva IS NULL AND e.reserva IS NULL)
            """#)

    /// Every booking the system confirmed (actor `system:…`: the reaction to its payment, or the
    /// expiry timer finding the payment confirmed) names its own payment and that payment holds
    /// exactly one PagamentoConfirmado: no booking is confirmed unpaid. (An operator's sandbox
    /// confirmation, actor an admin's id, may have no payment: the domain allows it.) Free
    /// bookings are no exception: pagamentos confirms a payment of 0 at once.
    static let confirmedBookingPaid = FaultInvariant(
        name: "confirmed_booking_paid",
        sql: #"""
            SELECT format('booking %s was confirmed by %s (%s v%s) with payment %s, whose stream %s holds %s PagamentoConfirmado (must be 1)',
                substr(c.stream_id, 9), c.metadata->>'actor', c.stream_id, c.stream_version, coalesce(c.data->>'pagamentoId', 'none'),
                'pagamento-' || substr(c.stream_id, 9), n.confirmacoes)
            FROM events AS c
            CROSS JOIN LATERAL (
                SELECT count(*) AS confirmacoes FROM events AS p
                WHERE p.stream_id = 'pagamento-' || substr(c.stream_id, 9) AND p.event_type = 'PagamentoConfirmado'
            ) AS n
            WHERE c.category = 'reserva' AND c.event_type = 'ReservaConfirmada' AND c.metadata->>'actor' LIKE 'system:%'
                AND (n.confirmacoes <> 1 OR lower(c.data->>'pagamentoId') IS DISTINCT FROM substr(c.stream_id, 9))
            """#)

    /// Money goes back exactly as the booking's end says, once: each payment holds at most one
    /// ReembolsoSolicitado, and the refunds of a booking's payment add up to what is due — a
    /// booking cancelled after its payment reached it (`pago` > 0) refunds the cancellation's
    /// `reembolso`; a booking cancelled before that (`pago` 0) or expired gives back everything
    /// that was nevertheless paid (a payment that landed late); a booking not ended refunds
    /// nothing. So every refund matches one cancellation (or expiry) of a paid booking, and every
    /// such cancellation has its refund.
    static let refundsMatchBookings = FaultInvariant(
        name: "refunds_match_bookings",
        sql: #"""
            WITH pagamento AS (
                SELECT stream_id, substr(stream_id, 11) AS reserva,
                    coalesce(sum((data->>'valor')::bigint) FILTER (WHERE event_type = 'PagamentoConfirmado'), 0) AS pago,
                    coalesce(sum((data->>'valor')::bigint) FILTER (WHERE event_type = 'ReembolsoSolicitado'), 0) AS devolvido,
                    count(*) FILTER (WHERE event_type = 'ReembolsoSolicitado') AS reembolsos
                FROM events
                WHERE category = 'pagamento'
                GROUP BY stream_id
            ),
            fim AS (
                SELECT DISTINCT ON (stream_id) substr(stream_id, 9) AS reserva, event_type,
                    (data->>'pago')::bigint AS pago, (data->>'reembolso')::bigint AS reembolso
                FROM events
                WHERE category = 'reserva' AND event_type IN ('ReservaCancelada', 'ReservaExpirada')
                ORDER BY stream_id, stream_version
            ),
            devido AS (
                SELECT p.*, f.event_type AS fim, f.pago AS pago_no_cancelamento, f.reembolso AS reembolso_no_cancelamento,
                    CASE
                        WHEN f.event_type = 'ReservaCancelada' AND f.pago > 0 THEN least(f.reembolso, p.pago)
                        WHEN f.event_type IS NOT NULL THEN p.pago
                        ELSE 0
                    END AS esperado
                FROM pagamento AS p
                LEFT JOIN fim AS f ON f.reserva = p.reserva
            )
            SELECT format('booking %s (%s): paid %s, %s refund(s) asked totalling %s centavos in %s; due %s (%s)',
                reserva, coalesce(fim, 'not ended'), pago, reembolsos, devolvido, stream_id, esperado,
                CASE
                    WHEN fim = 'ReservaCancelada' AND pago_no_cancelamento > 0
                        THEN 'cancelled after payment: its reembolso ' || reembolso_no_cancelamento
                    WHEN fim IS NOT NULL THEN 'ended before payment reached it: all that was paid'
                    ELSE 'nothing while the booking stands'
                END)
            FROM devido
            WHERE reembolsos > 1 OR devolvido <> esperado
            """#)

    /// Every refund asked for is concluded once, for the same amount (the provider's notice,
    /// ReembolsoConcluido), and nothing is concluded that was not asked for. Holds at rest: the
    /// sandbox provider sends its notice and retries it until the webhook takes it.
    static let refundsConcluded = FaultInvariant(
        name: "refunds_concluded",
        sql: #"""
            WITH pedido AS (
                SELECT stream_id, lower(data->>'reembolsoId') AS reembolso, (data->>'valor')::bigint AS valor
                FROM events
                WHERE category = 'pagamento' AND event_type = 'ReembolsoSolicitado'
            ),
            concluido AS (
                SELECT stream_id, lower(data->>'reembolsoId') AS reembolso, count(*) AS vezes, min((data->>'valor')::bigint) AS valor,
                    max((data->>'valor')::bigint) AS maior
                FROM events
                WHERE category = 'pagamento' AND event_type = 'ReembolsoConcluido'
                GROUP BY 1, 2
            )
            SELECT format('refund %s in %s: %s', coalesce(p.reembolso, c.reembolso, '?'), coalesce(p.stream_id, c.stream_id),
                CASE
                    WHEN c.reembolso IS NULL THEN 'asked for ' || p.valor || ' centavos, never concluded'
                    WHEN p.reembolso IS NULL THEN 'concluded (' || c.valor || ' centavos) but never asked for'
                    WHEN c.vezes > 1 THEN 'concluded ' || c.vezes || ' times'
                    ELSE 'asked for ' || p.valor || ' centavos, concluded for ' || c.valor
                END)
            FROM pedido AS p
            FULL JOIN concluido AS c ON c.stream_id = p.stream_id AND c.reembolso = p.reembolso
            WHERE p.reembolso IS NULL OR c.reembolso IS NULL OR c.vezes > 1 OR c.valor <> p.valor OR c.maior <> p.valor
            """#)

    // MARK: Finance

    /// The ledger balances (`Razao`, double entry on a cash basis): every LancamentoContabilizado
    /// has at least one line, every line is on exactly one side with no negative amount and an
    /// account of the chart (caixa, receita_de_servicos, iss_a_recolher, reembolsos), and its
    /// debits equal its credits, so each unit's ledger and the whole ledger sum to zero; each
    /// unit's entries are numbered 1..N (`sequencia`, gapless like the invoices) and filed in
    /// that unit's book (`faturas-<unidade>`).
    static let ledgerBalanced = FaultInvariant(
        name: "ledger_balanced",
        sql: #"""
            WITH lancamento AS (
                SELECT stream_id, stream_version, (data->>'sequencia')::int AS sequencia, lower(data->>'unidadeId') AS unidade,
                    data->'partidas' AS partidas
                FROM events
                WHERE category = 'faturas' AND event_type = 'LancamentoContabilizado'
            ),
            soma AS (
                SELECT l.stream_id, l.stream_version, l.sequencia, count(p.conta) AS linhas,
                    coalesce(sum(p.debito), 0) AS debitos, coalesce(sum(p.credito), 0) AS creditos,
                    count(*) FILTER (
                        WHERE p.conta IS NOT NULL AND (coalesce(p.debito, -1) < 0 OR coalesce(p.credito, -1) < 0
                            OR (p.debito > 0) = (p.credito > 0)
                            OR p.conta NOT IN ('caixa', 'receita_de_servicos', 'iss_a_recolher', 'reembolsos'))) AS invalidas
                FROM lancamento AS l
                LEFT JOIN LATERAL jsonb_to_recordset(l.partidas) AS p(conta text, debito bigint, credito bigint) ON true
                GROUP BY l.stream_id, l.stream_version, l.sequencia
            )
            SELECT format('ledger entry %s of %s (v%s): debits %s, credits %s, %s line(s), %s invalid (negative, on both sides or '
                    || 'neither, or an unknown account)',
                sequencia, stream_id, stream_version, debitos, creditos, linhas, invalidas)
            FROM soma
            WHERE debitos <> creditos OR linhas = 0 OR invalidas > 0
            UNION ALL
            SELECT format('ledger of %s does not balance: debits %s, credits %s', stream_id, sum(debitos), sum(creditos))
            FROM soma
            GROUP BY stream_id
            HAVING sum(debitos) <> sum(creditos)
            UNION ALL
            SELECT format('the whole ledger does not balance: debits %s, credits %s', sum(debitos), sum(creditos))
            FROM soma
            HAVING sum(debitos) <> sum(creditos)
            UNION ALL
            SELECT format('ledger of %s: %s entries numbered %s..%s, %s distinct (must be 1..N)',
                stream_id, count(*), min(sequencia), max(sequencia), count(DISTINCT sequencia))
            FROM lancamento
            GROUP BY stream_id
            HAVING min(sequencia) <> 1 OR max(sequencia) <> count(*) OR count(DISTINCT sequencia) <> count(*)
            UNION ALL
            SELECT format('ledger entry %s of unit %s is filed in %s (v%s)', sequencia, unidade, stream_id, stream_version)
            FROM lancamento
            WHERE unidade IS DISTINCT FROM substr(stream_id, 9)
            """#)

    /// Invoice numbers are gapless per unit: in each unit's book (`faturas-<unidade>`) the
    /// invoices — FaturaEmitida for bookings and FaturaDeAssinaturaEmitida for subscription
    /// cycles, one sequence, printed F-1, F-2, … — are numbered 1..N with no gap or repeat, and
    /// so are the credit notes (NotaDeCreditoEmitida, their own sequence NC-1, NC-2, …); each is
    /// filed in its own unit's book. `Fatura.decider` numbers from the folded book and appends
    /// with the exact version it read, so no concurrency may break this.
    static let invoiceNumbersGapless = FaultInvariant(
        name: "invoice_numbers_gapless",
        sql: #"""
            WITH doc AS (
                SELECT stream_id, stream_version, CASE WHEN event_type = 'NotaDeCreditoEmitida' THEN 'NC' ELSE 'F' END AS serie,
                    (data->>'numero')::int AS numero, lower(data->>'unidadeId') AS unidade
                FROM events
                WHERE category = 'faturas' AND event_type IN ('FaturaEmitida', 'FaturaDeAssinaturaEmitida', 'NotaDeCreditoEmitida')
            ),
            livro AS (
                SELECT stream_id, serie, count(*) AS n, count(DISTINCT numero) AS distintos, min(numero) AS primeiro, max(numero) AS ultimo
                FROM doc
                GROUP BY stream_id, serie
            )
            SELECT format('book %s: %s %s documents numbered %s..%s%s%s', b.stream_id, b.n, b.serie, b.primeiro, b.ultimo,
                (SELECT '; repeated: ' || string_agg(b.serie || '-' || r.numero || ' ×' || r.vezes, ', ' ORDER BY r.numero)
                    FROM (SELECT numero, count(*) AS vezes FROM doc AS d WHERE d.stream_id = b.stream_id AND d.serie = b.serie
                        GROUP BY numero HAVING count(*) > 1 ORDER BY numero LIMIT 20) AS r),
                (SELECT '; missing: ' || string_agg(b.serie || '-' || g, ', ' ORDER BY g)
                    FROM (SELECT g FROM generate_series(1, least(b.ultimo, b.n + 1000)) AS g
                        WHERE NOT EXISTS (SELECT 1 FROM doc AS d WHERE d.stream_id = b.stream_id AND d.serie = b.serie AND d.numero = g)
                        ORDER BY g LIMIT 20) AS m))
            FROM livro AS b
            WHERE b.primeiro <> 1 OR b.ultimo <> b.n OR b.distintos <> b.n
            UNION ALL
            SELECT format('document %s-%s of unit %s is filed in %s (v%s)', serie, numero, unidade, stream_id, stream_version)
            FROM doc
            WHERE unidade IS DISTINCT FROM substr(stream_id, 9)
            """#)

    /// Every invoice and credit note has exactly one ledger entry in its book (`origem` names
    /// it: tipo, documentoId, numero), appended with it, which moves caixa by the document's
    /// amount (a debit for an invoice, a credit for a credit note) and ISS a recolher by its
    /// `iss` (credited for an invoice, debited back for a note); and every entry books a
    /// document of its book.
    static let ledgerEntryPerDocument = FaultInvariant(
        name: "ledger_entry_per_document",
        sql: #"""
            WITH doc AS (
                SELECT stream_id, stream_version, event_type,
                    CASE WHEN event_type = 'NotaDeCreditoEmitida' THEN 'nota_de_credito' ELSE 'fatura' END AS tipo,
                    lower(CASE WHEN event_type = 'NotaDeCreditoEmitida' THEN data->>'notaId' ELSE data->>'faturaId' END) AS documento,
                    (data->>'numero')::int AS numero, (data->>'valor')::bigint AS valor, (data->>'iss')::bigint AS iss
                FROM events
                WHERE category = 'faturas' AND event_type IN ('FaturaEmitida', 'FaturaDeAssinaturaEmitida', 'NotaDeCreditoEmitida')
            ),
            lancamento AS (
                SELECT e.stream_id, e.stream_version, e.data->>'sequencia' AS sequencia, e.data->'origem'->>'tipo' AS tipo,
                    lower(e.data->'origem'->>'documentoId') AS documento, (e.data->'origem'->>'numero')::int AS numero, s.*
                FROM events AS e
                CROSS JOIN LATERAL (
                    SELECT coalesce(sum(p.debito) FILTER (WHERE p.conta = 'caixa'), 0) AS caixa_debito,
                        coalesce(sum(p.credito) FILTER (WHERE p.conta = 'caixa'), 0) AS caixa_credito,
                        coalesce(sum(coalesce(p.credito, 0) - coalesce(p.debito, 0)) FILTER (WHERE p.conta = 'iss_a_recolher'), 0) AS iss
                    FROM jsonb_to_recordset(e.data->'partidas') AS p(conta text, debito bigint, credito bigint)
                ) AS s
                WHERE e.category = 'faturas' AND e.event_type = 'LancamentoContabilizado'
            ),
            casado AS (
                SELECT d.stream_id, d.stream_version, d.event_type, d.tipo, d.documento, d.numero, d.valor, d.iss,
                    count(l.documento) AS lancamentos,
                    coalesce(bool_and(l.tipo = d.tipo AND l.numero = d.numero), true) AS mesma_origem,
                    coalesce(bool_and(CASE WHEN d.tipo = 'fatura' THEN l.caixa_debito = d.valor AND l.caixa_credito = 0 AND l.iss = d.iss
                        ELSE l.caixa_credito = d.valor AND l.caixa_debito = 0 AND l.iss = -d.iss END), true) AS valores
                FROM doc AS d
                LEFT JOIN lancamento AS l ON l.stream_id = d.stream_id AND l.documento = d.documento
                GROUP BY d.stream_id, d.stream_version, d.event_type, d.tipo, d.documento, d.numero, d.valor, d.iss
            )
            SELECT format('%s %s-%s (%s, %s v%s): %s', event_type, CASE tipo WHEN 'fatura' THEN 'F' ELSE 'NC' END, numero, documento,
                stream_id, stream_version,
                CASE
                    WHEN lancamentos <> 1 THEN lancamentos || ' ledger entries (must be 1)'
                    WHEN NOT mesma_origem THEN 'its ledger entry names another document type or number'
                    ELSE 'its ledger entry does not move caixa by ' || valor || ' and ISS by ' || iss || ' centavos'
                END)
            FROM casado
            WHERE lancamentos <> 1 OR NOT mesma_origem OR NOT valores
            UNION ALL
            SELECT format('ledger entry %s of %s (v%s) books %s %s, which is not a document of this book',
                l.sequencia, l.stream_id, l.stream_version, coalesce(l.tipo, '?'), coalesce(l.documento, '?'))
            FROM lancamento AS l
            WHERE NOT EXISTS (SELECT 1 FROM doc AS d WHERE d.stream_id = l.stream_id AND d.documento = l.documento)
            """#)

    /// Exactly-once effects in financeiro: every PagamentoConfirmado of more than 0 has exactly
    /// one FaturaEmitida (by `pagamentoId`), for the same amount, in its unit's book, and that
    /// invoice exactly one FaturaPaga; every ReembolsoConcluido of more than 0 exactly one
    /// NotaDeCreditoEmitida (by `reembolsoId`) for the same amount, and so does every bundle's
    /// CompraDePacoteReembolsada of more than 0; every paid subscription
    /// cycle (CobrancaDeCicloConfirmada) whose CicloIniciado charges more than 0 exactly one
    /// FaturaDeAssinaturaEmitida; and no invoice or note exists without its cause. A missing
    /// document after the load settled is a lost event (or a dead letter: see `no_dead_letters`);
    /// a second one, an effect applied twice.
    static let paymentsInvoicedOnce = FaultInvariant(
        name: "payments_invoiced_once",
        sql: #"""
            WITH pago AS (
                SELECT stream_id, stream_version, lower(data->>'pagamentoId') AS pagamento, lower(data->>'unidadeId') AS unidade,
                    (data->>'valor')::bigint AS valor
                FROM events
                WHERE category = 'pagamento' AND event_type = 'PagamentoConfirmado'
            ),
            fatura AS (
                SELECT stream_id, lower(data->>'pagamentoId') AS pagamento, lower(data->>'faturaId') AS fatura, (data->>'numero')::int AS numero,
                    (data->>'valor')::bigint AS valor
                FROM events
                WHERE category = 'faturas' AND event_type = 'FaturaEmitida'
            ),
            paga AS (
                SELECT stream_id, lower(data->>'faturaId') AS fatura FROM events WHERE category = 'faturas' AND event_type = 'FaturaPaga'
            ),
            reembolso AS (
                SELECT stream_id, stream_version, lower(data->>'reembolsoId') AS reembolso, lower(data->>'unidadeId') AS unidade,
                    (data->>'valor')::bigint AS valor
                FROM events
                WHERE category = 'pagamento' AND event_type = 'ReembolsoConcluido'
            ),
            nota AS (
                SELECT stream_id, lower(data->>'reembolsoId') AS reembolso, (data->>'numero')::int AS numero, (data->>'valor')::bigint AS valor
                FROM events
                WHERE category = 'faturas' AND event_type = 'NotaDeCreditoEmitida'
            ),
            compra_reembolsada AS (
                SELECT stream_id, lower(data->>'reembolsoId') AS reembolso, (data->>'valor')::bigint AS valor
                FROM events
                WHERE category = 'compra' AND event_type = 'CompraDePacoteReembolsada'
            ),
            ciclo AS (
                SELECT DISTINCT ON (lower(data->>'assinaturaId'), (data->'ciclo'->>'numero')::int)
                    lower(data->>'assinaturaId') AS assinatura, (data->'ciclo'->>'numero')::int AS ciclo,
                    (data->'ciclo'->>'valorCentavos')::bigint AS valor
                FROM events
                WHERE category = 'assinatura' AND event_type = 'CicloIniciado'
                ORDER BY lower(data->>'assinaturaId'), (data->'ciclo'->>'numero')::int, tx_id DESC, position DESC
            ),
            cobrado AS (
                SELECT DISTINCT lower(data->>'assinaturaId') AS assinatura, (data->>'ciclo')::int AS ciclo
                FROM events
                WHERE category = 'assinatura' AND event_type = 'CobrancaDeCicloConfirmada'
            ),
            fatura_de_ciclo AS (
                SELECT stream_id, lower(data->>'assinaturaId') AS assinatura, (data->>'ciclo')::int AS ciclo, (data->>'numero')::int AS numero
                FROM events
                WHERE category = 'faturas' AND event_type = 'FaturaDeAssinaturaEmitida'
            )
            SELECT format('payment %s of %s centavos (%s v%s) has %s invoice(s)%s (must be 1, of that amount, in faturas-%s)',
                p.pagamento, p.valor, p.stream_id, p.stream_version, count(f.fatura),
                coalesce(': ' || string_agg(f.stream_id || ' F-' || f.numero || ' of ' || f.valor, ', '), ''), p.unidade)
            FROM pago AS p
            LEFT JOIN fatura AS f ON f.pagamento = p.pagamento
            WHERE p.valor > 0
            GROUP BY p.pagamento, p.valor, p.stream_id, p.stream_version, p.unidade
            HAVING count(f.fatura) <> 1 OR bool_or(f.valor <> p.valor OR f.stream_id <> 'faturas-' || p.unidade)
            UNION ALL
            SELECT format('invoice F-%s (%s) of %s is for payment %s, which was never confirmed', f.numero, f.fatura, f.stream_id, f.pagamento)
            FROM fatura AS f
            WHERE NOT EXISTS (SELECT 1 FROM pago AS p WHERE p.pagamento = f.pagamento)
            UNION ALL
            SELECT format('invoice F-%s (%s) of %s has %s FaturaPaga (must be 1)', f.numero, f.fatura, f.stream_id,
                (SELECT count(*) FROM paga AS g WHERE g.stream_id = f.stream_id AND g.fatura = f.fatura))
            FROM fatura AS f
            WHERE (SELECT count(*) FROM paga AS g WHERE g.stream_id = f.stream_id AND g.fatura = f.fatura) <> 1
            UNION ALL
            SELECT format('refund %s of %s centavos (%s v%s) has %s credit note(s)%s (must be 1, of that amount, in faturas-%s)',
                r.reembolso, r.valor, r.stream_id, r.stream_version, count(n.reembolso),
                coalesce(': ' || string_agg(n.stream_id || ' NC-' || n.numero || ' of ' || n.valor, ', '), ''), r.unidade)
            FROM reembolso AS r
            LEFT JOIN nota AS n ON n.reembolso = r.reembolso
            WHERE r.valor > 0
            GROUP BY r.reembolso, r.valor, r.stream_id, r.stream_version, r.unidade
            HAVING count(n.reembolso) <> 1 OR bool_or(n.valor <> r.valor OR n.stream_id <> 'faturas-' || r.unidade)
            UNION ALL
            SELECT format('bundle refund %s of %s centavos (%s) has %s credit note(s) (must be 1, of that amount)',
                c.reembolso, c.valor, c.stream_id, count(n.reembolso))
            FROM compra_reembolsada AS c
            LEFT JOIN nota AS n ON n.reembolso = c.reembolso
            WHERE c.valor > 0
            GROUP BY c.reembolso, c.valor, c.stream_id
            HAVING count(n.reembolso) <> 1 OR bool_or(n.valor <> c.valor)
            UNION ALL
            SELECT format('credit note NC-%s of %s is for refund %s, which was never concluded', n.numero, n.stream_id, n.reembolso)
            FROM nota AS n
            WHERE NOT EXISTS (SELECT 1 FROM reembolso AS r WHERE r.reembolso = n.reembolso)
                AND NOT EXISTS (SELECT 1 FROM compra_reembolsada AS c WHERE c.reembolso = n.reembolso)
            UNION ALL
            SELECT format('subscription %s cycle %s (%s centavos) was paid and has %s invoice(s)%s (must be 1)',
                c.assinatura, c.ciclo, c.valor, count(f.numero), coalesce(': ' || string_agg(f.stream_id || ' F-' || f.numero, ', '), ''))
            FROM cobrado AS k
            JOIN ciclo AS c ON c.assinatura = k.assinatura AND c.ciclo = k.ciclo
            LEFT JOIN fatura_de_ciclo AS f ON f.assinatura = c.assinatura AND f.ciclo = c.ciclo
            WHERE c.valor > 0
            GROUP BY c.assinatura, c.ciclo, c.valor
            HAVING count(f.numero) <> 1
            UNION ALL
            SELECT format('invoice F-%s of %s is for subscription %s cycle %s, which was never paid or charges nothing',
                f.numero, f.stream_id, f.assinatura, f.ciclo)
            FROM fatura_de_ciclo AS f
            WHERE NOT EXISTS (
                SELECT 1 FROM cobrado AS k JOIN ciclo AS c USING (assinatura, ciclo)
                WHERE k.assinatura = f.assinatura AND k.ciclo = f.ciclo AND c.valor > 0)
            """#)

    // MARK: Check-in

    /// Every check-in stream (`checkin-<reserva>`) follows `Checkin.decider`: CheckinLiberado
    /// first, then any number of CheckinRemarcado (the booking moved before anyone came), then at
    /// most one of a check-in (optionally followed by its check-out), a no-show or a revocation —
    /// never both a check-in and a no-show; and a code is only issued for a booking that was
    /// confirmed.
    static let checkinConsistent = FaultInvariant(
        name: "checkin_consistent",
        sql: #"""
            SELECT format('check-in stream %s went %s (allowed: Liberado [> Remarcado …], then Realizado [> Checkout], NoShowRegistrado or Revogado)',
                stream_id, string_agg(event_type, ' > ' ORDER BY stream_version))
            FROM events
            WHERE category = 'checkin'
            GROUP BY stream_id
            HAVING string_agg(CASE event_type
                        WHEN 'CheckinLiberado' THEN 'L' WHEN 'CheckinRealizado' THEN 'R' WHEN 'CheckoutRealizado' THEN 'O'
                        WHEN 'NoShowRegistrado' THEN 'N' WHEN 'CheckinRevogado' THEN 'V' WHEN 'CheckinRemarcado' THEN 'M' ELSE '?' END,
                    '' ORDER BY stream_version) !~ '^LM*(RO?|N|V)?$'
            UNION ALL
            SELECT format('a check-in code was issued in %s (v%s) for booking %s, which was never confirmed',
                c.stream_id, c.stream_version, substr(c.stream_id, 9))
            FROM events AS c
            WHERE c.category = 'checkin' AND c.event_type = 'CheckinLiberado'
                AND NOT EXISTS (
                    SELECT 1 FROM events AS r WHERE r.stream_id = 'reserva-' || substr(c.stream_id, 9) AND r.event_type = 'ReservaConfirmada')
            """#)

    // MARK: E-mails

    /// No e-mail is recorded twice for the same cause. notificacoes records each e-mail it sent
    /// (NotificacaoEnviada) or gave up on (NotificacaoFalhou) in a stream of its own named by an
    /// id derived from its cause (the event, or the booking for a reminder) and appended
    /// expecting no stream: so at most one record per causing event (`causationId`), per kind
    /// and booking (confirmation, payment, reminder, cancellation, refund, no-show, expiry: each
    /// happens once to a booking), per member's welcome, and per stream.
    static let emailOnce = FaultInvariant(
        name: "email_once",
        sql: #"""
            WITH aviso AS (
                SELECT stream_id, data->>'tipo' AS tipo, lower(data->>'reservaId') AS reserva, lower(data->>'usuarioId') AS usuario,
                    lower(metadata->>'causationId') AS causa
                FROM events
                WHERE category = 'notificacao' AND event_type IN ('NotificacaoEnviada', 'NotificacaoFalhou')
            )
            SELECT format('the e-mail caused by event %s was recorded %s times: %s', causa, count(*),
                string_agg(stream_id || ' (' || tipo || ')', ', ' ORDER BY stream_id))
            FROM aviso
            WHERE causa IS NOT NULL
            GROUP BY causa
            HAVING count(*) > 1
            UNION ALL
            SELECT format('the %s e-mail about booking %s was recorded %s times: %s', tipo, reserva, count(*),
                string_agg(stream_id, ', ' ORDER BY stream_id))
            FROM aviso
            WHERE reserva IS NOT NULL
                AND tipo IN ('reserva_confirmada', 'pagamento_recebido', 'lembrete', 'cancelamento', 'reembolso', 'no_show', 'expiracao')
            GROUP BY tipo, reserva
            HAVING count(*) > 1
            UNION ALL
            SELECT format('the welcome e-mail to %s was recorded %s times: %s', usuario, count(*), string_agg(stream_id, ', ' ORDER BY stream_id))
            FROM aviso
            WHERE tipo = 'boas_vindas'
            GROUP BY usuario
            HAVING count(*) > 1
            UNION ALL
            SELECT format('notification stream %s records %s outcomes (must be 1)', stream_id, count(*))
            FROM aviso
            GROUP BY stream_id
            HAVING count(*) > 1
            """#)

    /// Every event that must produce an e-mail has its record (NotificacaoEnviada, or
    /// NotificacaoFalhou for a refusal that will not change) caused by it (`causationId` = its
    /// event id): UsuarioRegistrado of an account (`usuario-` stream), ReservaConfirmada,
    /// ReservaCancelada, ReservaExpirada, ReservaRemarcada, PagamentoConfirmado of more than 0,
    /// ReembolsoConcluido, NoShowRegistrado, SerieDeReservasCriada, SerieDeReservasCancelada,
    /// SerieDeReservasRemarcada, CobrancaDeCicloConfirmada, CobrancaDeCicloRecusada,
    /// AssinaturaSuspensa and AssinaturaReativada (`NotificacoesService.aviso(for:)`).
    ///
    /// A series tells once for its bookings (ADR 0014): an occurrence's ReservaConfirmada and
    /// PagamentoConfirmado, a ReservaCancelada or ReservaRemarcada marked `daSerie`, and the
    /// ReembolsoConcluido of exactly the refund a series' cancellation announced send nothing of
    /// their own. A notice about bookings that all ended before notificacoes read them is not
    /// sent either: a move (ReservaRemarcada, SerieDeReservasRemarcada) or a series'
    /// SerieDeReservasCriada whose bookings were all cancelled, expired or concluded since (their
    /// own notices tell). Left out: members whose data was erased (DadosPessoaisApagados: nobody
    /// to write to), company invitations (ConviteEnviado: nothing goes once the invitation was
    /// accepted or revoked, which the log does not say in clear), and reminders (a timer's, due
    /// `lembreteHoras` before the start and never once the booking started: a notificacoes
    /// outage may rightly skip one).
    static let emailForEveryCause = FaultInvariant(
        name: "email_for_every_cause",
        sql: #"""
            WITH registrado AS (
                SELECT DISTINCT lower(metadata->>'causationId') AS causa
                FROM events
                WHERE category = 'notificacao' AND event_type IN ('NotificacaoEnviada', 'NotificacaoFalhou')
            ),
            apagado AS (
                SELECT DISTINCT lower(data->>'usuarioId') AS usuario FROM events WHERE category = 'usuario' AND event_type = 'DadosPessoaisApagados'
            ),
            reserva AS (
                SELECT stream_id, lower(data->>'usuarioId') AS usuario, coalesce(jsonb_typeof(data->'serie') = 'object', false) AS da_serie
                FROM events
                WHERE category = 'reserva' AND event_type = 'ReservaSolicitada'
            ),
            encerrada AS (
                SELECT DISTINCT stream_id FROM events
                WHERE category = 'reserva' AND event_type IN ('ReservaCancelada', 'ReservaExpirada', 'ReservaConcluida')
            ),
            reembolso_da_serie AS (
                -- The refund a series' cancellation announced for one of its bookings.
                SELECT substr(stream_id, 9) AS reserva, (data->>'reembolso')::bigint AS valor
                FROM events
                WHERE category = 'reserva' AND event_type = 'ReservaCancelada' AND (data->>'daSerie')::boolean IS TRUE
            ),
            causa AS (
                SELECT e.event_id, e.event_type, e.stream_id, e.stream_version,
                    CASE
                        WHEN e.event_type = 'UsuarioRegistrado' THEN substr(e.stream_id, 9)
                        WHEN e.event_type IN ('ReservaConfirmada', 'ReservaCancelada', 'ReservaExpirada', 'ReservaRemarcada') THEN r.usuario
                        WHEN e.event_type IN ('PagamentoConfirmado', 'ReembolsoConcluido', 'NoShowRegistrado') THEN lower(e.data->>'usuarioId')
                        WHEN e.event_type = 'SerieDeReservasCriada' THEN lower(e.data->'serie'->>'usuarioId')
                        WHEN e.event_type IN ('SerieDeReservasCancelada', 'SerieDeReservasRemarcada') THEN lower(e.data->>'usuarioId')
                        ELSE lower(e.data->>'titular')
                    END AS usuario
                FROM events AS e
                LEFT JOIN reserva AS r ON r.stream_id = e.stream_id
                LEFT JOIN reserva AS p ON e.category = 'pagamento' AND p.stream_id = 'reserva-' || lower(e.data->>'reservaId')
                WHERE (e.category = 'usuario' AND e.event_type = 'UsuarioRegistrado')
                    OR (e.category = 'reserva' AND e.event_type = 'ReservaExpirada')
                    OR (e.category = 'reserva' AND e.event_type = 'ReservaConfirmada' AND NOT coalesce(r.da_serie, false))
                    OR (e.category = 'reserva' AND e.event_type = 'ReservaCancelada' AND (e.data->>'daSerie')::boolean IS NOT TRUE)
                    OR (e.category = 'reserva' AND e.event_type = 'ReservaRemarcada' AND (e.data->>'daSerie')::boolean IS NOT TRUE
                        AND NOT EXISTS (SELECT 1 FROM encerrada AS x WHERE x.stream_id = e.stream_id))
                    OR (e.category = 'pagamento' AND e.event_type = 'PagamentoConfirmado' AND (e.data->>'valor')::bigint > 0
                        AND NOT coalesce(p.da_serie, false))
                    OR (e.event_type = 'ReembolsoConcluido'
                        AND NOT EXISTS (
                            SELECT 1 FROM reembolso_da_serie AS s
                            WHERE s.reserva = lower(e.data->>'reservaId') AND s.valor = (e.data->>'valor')::bigint))
                    OR (e.category = 'serie' AND e.event_type = 'SerieDeReservasCancelada')
                    OR (e.category = 'serie' AND e.event_type = 'SerieDeReservasCriada'
                        AND EXISTS (
                            SELECT 1 FROM jsonb_array_elements(e.data->'serie'->'ocorrencias') AS o(ocorrencia)
                            WHERE o.ocorrencia->>'reservaId' IS NOT NULL
                                AND NOT EXISTS (
                                    SELECT 1 FROM encerrada AS x WHERE x.stream_id = 'reserva-' || lower(o.ocorrencia->>'reservaId'))))
                    OR (e.category = 'serie' AND e.event_type = 'SerieDeReservasRemarcada'
                        AND EXISTS (
                            SELECT 1 FROM jsonb_array_elements(e.data->'movidas') AS m(movida)
                            WHERE NOT EXISTS (
                                SELECT 1 FROM encerrada AS x WHERE x.stream_id = 'reserva-' || lower(m.movida->>'reservaId'))))
                    OR e.event_type IN ('NoShowRegistrado', 'CobrancaDeCicloConfirmada', 'CobrancaDeCicloRecusada',
                        'AssinaturaSuspensa', 'AssinaturaReativada')
            )
            SELECT format('%s %s (%s v%s) has no e-mail recorded for %s (no NotificacaoEnviada or NotificacaoFalhou caused by it)',
                c.event_type, c.event_id, c.stream_id, c.stream_version, coalesce(c.usuario, 'an unknown member'))
            FROM causa AS c
            WHERE NOT EXISTS (SELECT 1 FROM registrado AS n WHERE n.causa = c.event_id::text)
                AND NOT EXISTS (SELECT 1 FROM apagado AS a WHERE a.usuario = c.usuario)
            ORDER BY c.stream_id, c.stream_version
            """#)

    // MARK: Series

    /// A series' changes are recorded with the bookings they changed (ADR 0014). A move of the
    /// rest of a series is all or none in one append: every ReservaRemarcada marked `daSerie`
    /// shares its transaction with a SerieDeReservasRemarcada that names the booking with the
    /// same new time, and every booking such a record names moved in that transaction. A
    /// cancellation of the rest cancels booking by booking and records what it cancelled last:
    /// every ReservaCancelada marked `daSerie` is named by a SerieDeReservasCancelada of its
    /// series — the record that tells the member. A cancellation cut short (a process killed
    /// between the bookings and the record) is recorded by the next cancellation of the series
    /// or, `Reservas.esperaPeloRegistroDaSerie` (120 s) later, by reservas' timer: so only
    /// cancellations older than 150 s when this runs are held to it. A booking cancelled as the
    /// series' that no record names was cancelled without the member being told.
    static let seriesChangesRecorded = FaultInvariant(
        name: "series_changes_recorded",
        sql: #"""
            WITH movida AS (
                SELECT e.stream_id, e.stream_version, e.tx_id, lower(m.movida->>'reservaId') AS reserva,
                    (m.movida->'para'->>'inicio')::timestamptz AS ini
                FROM events AS e
                CROSS JOIN LATERAL jsonb_array_elements(e.data->'movidas') AS m(movida)
                WHERE e.category = 'serie' AND e.event_type = 'SerieDeReservasRemarcada'
            ),
            remarcada AS (
                SELECT stream_id, stream_version, tx_id, substr(stream_id, 9) AS reserva, (data->'para'->>'inicio')::timestamptz AS ini
                FROM events
                WHERE category = 'reserva' AND event_type = 'ReservaRemarcada' AND (data->>'daSerie')::boolean IS TRUE
            ),
            cancelada AS (
                SELECT e.stream_id, e.stream_version, substr(e.stream_id, 9) AS reserva, lower(s.data->'serie'->>'serieId') AS serie
                FROM events AS e
                JOIN events AS s ON s.stream_id = e.stream_id AND s.stream_version = 1
                WHERE e.category = 'reserva' AND e.event_type = 'ReservaCancelada' AND (e.data->>'daSerie')::boolean IS TRUE
                    AND e.recorded_at < now() - interval '150 seconds'
            ),
            nomeada AS (
                SELECT DISTINCT substr(e.stream_id, 7) AS serie, lower(c.reserva) AS reserva
                FROM events AS e
                CROSS JOIN LATERAL jsonb_array_elements_text(e.data->'canceladas') AS c(reserva)
                WHERE e.category = 'serie' AND e.event_type = 'SerieDeReservasCancelada'
            )
            SELECT format('booking %s moved as its series'' (%s v%s), but no SerieDeReservasRemarcada of that append names it at that time',
                r.reserva, r.stream_id, r.stream_version)
            FROM remarcada AS r
            WHERE NOT EXISTS (SELECT 1 FROM movida AS m WHERE m.tx_id = r.tx_id AND m.reserva = r.reserva AND m.ini = r.ini)
            UNION ALL
            SELECT format('%s v%s names booking %s as moved, but that append holds no ReservaRemarcada of it to that time',
                m.stream_id, m.stream_version, m.reserva)
            FROM movida AS m
            WHERE NOT EXISTS (SELECT 1 FROM remarcada AS r WHERE r.tx_id = m.tx_id AND r.reserva = m.reserva AND r.ini = m.ini)
            UNION ALL
            SELECT format('booking %s was cancelled as series %s''s (%s v%s), but no SerieDeReservasCancelada names it: its member was never told',
                c.reserva, coalesce(c.serie, '?'), c.stream_id, c.stream_version)
            FROM cancelada AS c
            WHERE NOT EXISTS (SELECT 1 FROM nomeada AS n WHERE n.serie = c.serie AND n.reserva = c.reserva)
            """#)

    // MARK: Delivery

    /// Everything was published: the relay (checkpoint `relay`, shared by its replicas) moves its
    /// checkpoint only after the broker confirmed a batch, so at rest it is the head of the log,
    /// the greatest `(tx_id, position)`.
    static let relayAtHead = FaultInvariant(
        name: "relay_at_head",
        sql: #"""
            WITH head AS (SELECT tx_id, position FROM events ORDER BY tx_id DESC, position DESC LIMIT 1)
            SELECT format('relay checkpoint %s is not the head of the log %s/%s: %s event(s) after it were never confirmed by the broker',
                coalesce(c.tx_id || '/' || c.position, 'missing'), h.tx_id, h.position,
                (SELECT count(*) FROM events AS e WHERE (e.tx_id, e.position) > (coalesce(c.tx_id, 0), coalesce(c.position, 0))))
            FROM head AS h
            LEFT JOIN subscription_checkpoints AS c ON c.name = 'relay'
            WHERE c.name IS NULL OR (c.tx_id, c.position) <> (h.tx_id, h.position)
            """#)

    /// Every projection's checkpoint (`projection:<name>`, saved with its documents in one
    /// transaction) is at the head of the log, so its read model shows every event and a
    /// comparison with a rebuild is meaningful. A runner saves the checkpoint of batches holding
    /// nothing it reads lazily (every 100 ms while it follows), so at rest every one is at the
    /// head. Staged rebuilds (`projection:<name>~…`) are not read models yet and are left out;
    /// `projectionsAtHead(checkpoints:)` also finds a projection with no checkpoint at all.
    static let projectionsAtHead = FaultInvariant(
        name: "projections_at_head",
        sql: #"""
            WITH head AS (SELECT tx_id, position FROM events ORDER BY tx_id DESC, position DESC LIMIT 1)
            SELECT format('%s is at %s/%s, not at the head of the log %s/%s (%s event(s) behind)', c.name, c.tx_id, c.position,
                h.tx_id, h.position, (SELECT count(*) FROM events AS e WHERE (e.tx_id, e.position) > (c.tx_id, c.position)))
            FROM head AS h
            JOIN subscription_checkpoints AS c ON c.name LIKE 'projection:%' AND strpos(c.name, '~') = 0
            WHERE (c.tx_id, c.position) <> (h.tx_id, h.position)
            UNION ALL
            SELECT 'no projection checkpoint at all, though the log holds events'
            FROM head
            WHERE NOT EXISTS (SELECT 1 FROM subscription_checkpoints WHERE name LIKE 'projection:%' AND strpos(name, '~') = 0)
            """#)

    /// `projections_at_head` for a known list of checkpoints (e.g. `ReadModels.all.map(\.checkpoint)`):
    /// each must exist and be at the head of the log.
    static func projectionsAtHead(checkpoints: [String]) -> FaultInvariant {
        let names =
            checkpoints.isEmpty
            ? "SELECT NULL::text AS name WHERE false"
            : "VALUES " + checkpoints.map { "(\(literal($0)))" }.joined(separator: ", ")
        return FaultInvariant(
            name: "projections_at_head",
            sql: #"""
                WITH head AS (SELECT tx_id, position FROM events ORDER BY tx_id DESC, position DESC LIMIT 1),
                expected(name) AS (\#(names))
                SELECT format('%s is %s, not at the head of the log %s/%s (%s event(s) behind)', x.name,
                    coalesce('at ' || c.tx_id || '/' || c.position, 'missing'), h.tx_id, h.position,
                    (SELECT count(*) FROM events AS e WHERE (e.tx_id, e.position) > (coalesce(c.tx_id, 0), coalesce(c.position, 0))))
                FROM head AS h
                CROSS JOIN expected AS x
                LEFT JOIN subscription_checkpoints AS c ON c.name = x.name
                WHERE c.name IS NULL OR (c.tx_id, c.position) <> (h.tx_id, h.position)
                """#)
    }

    /// Every consumer's inbox holds each event it is bound to exactly once. A consumer records
    /// every event its queue delivers — handled, with its effect in the same transaction, or
    /// dead-lettered — and the primary key `(consumer, event_id)` makes "more than once"
    /// impossible, so what is checked is that none is missing: every event of a type in
    /// `bindings[consumer]` appended after position `appendedAfter` has its row. Also an error:
    /// a row for an event that is not in the log, or for an event of a type the consumer is not
    /// bound to.
    ///
    /// - Parameters:
    ///   - bindings: consumer name (`consumer_inbox.consumer`, the service's `consumidor`) → the
    ///     event types it is bound to, or its routing keys (`<context>.<EventType>`: the part
    ///     after the first dot is taken). A wildcard pattern (`*`, `#`) cannot be listed from the
    ///     log and is reported as a violation of its own.
    ///   - appendedAfter: only events whose `position` is greater are checked: events appended
    ///     before a consumer first declared its queue were routed nowhere (the relay publishes
    ///     without `mandatory`), so a harness that appends before every consumer is up passes
    ///     the head position at that time. 0 checks every event.
    static func inbox(bindings: [String: [String]], appendedAfter: Int64 = 0) -> FaultInvariant {
        var rows: [String] = []
        var wildcards: [String] = []
        for (consumer, keys) in bindings.sorted(by: { $0.key < $1.key }) {
            for key in keys {
                if key.contains("*") || key.contains("#") {
                    wildcards.append("SELECT \(literal("consumer \(consumer) is bound to the pattern \(key), which this check cannot list"))")
                    continue
                }
                let type = key.split(separator: ".", maxSplits: 1).last.map(String.init) ?? key
                rows.append("(\(literal(consumer)), \(literal(type)))")
            }
        }
        let bound =
            rows.isEmpty
            ? "SELECT NULL::text AS consumer, NULL::text AS event_type WHERE false"
            : "VALUES " + rows.joined(separator: ", ")
        let patterns = wildcards.map { "UNION ALL\n" + $0 }.joined(separator: "\n")
        return FaultInvariant(
            name: "inbox_exactly_once",
            sql: #"""
                WITH bound(consumer, event_type) AS (\#(bound))
                SELECT format('consumer %s never recorded %s %s (%s v%s, position %s/%s) in its inbox',
                    b.consumer, e.event_type, e.event_id, e.stream_id, e.stream_version, e.tx_id, e.position)
                FROM bound AS b
                JOIN events AS e ON e.event_type = b.event_type
                WHERE e.position > \#(appendedAfter)
                    AND NOT EXISTS (SELECT 1 FROM consumer_inbox AS i WHERE i.consumer = b.consumer AND i.event_id = e.event_id)
                UNION ALL
                SELECT format('consumer %s has an inbox row (%s) for event %s, which is not in the log', i.consumer, i.outcome, i.event_id)
                FROM consumer_inbox AS i
                WHERE NOT EXISTS (SELECT 1 FROM events AS e WHERE e.event_id = i.event_id)
                UNION ALL
                SELECT format('consumer %s recorded %s %s (%s v%s), a type it is not bound to', i.consumer, e.event_type, e.event_id,
                    e.stream_id, e.stream_version)
                FROM consumer_inbox AS i
                JOIN events AS e ON e.event_id = i.event_id
                WHERE i.consumer IN (SELECT consumer FROM bound)
                    AND NOT EXISTS (SELECT 1 FROM bound AS b WHERE b.consumer = i.consumer AND b.event_type = e.event_type)
                \#(patterns)
                """#)
    }

    /// No dead letters: every `dead` row of `consumer_inbox` (an event a consumer gave up on after
    /// its attempts, with the reason) and every redrive an operator asked for that is still
    /// pending (`consumer_redrive`). Under faults a dead letter is allowed only when a fault
    /// caused a permanent error; this lists each with its reason, for the harness to judge.
    static let noDeadLetters = FaultInvariant(
        name: "no_dead_letters",
        sql: #"""
            SELECT format('consumer %s dead-lettered %s %s (%s v%s) after %s attempt(s) at %s: %s', i.consumer,
                coalesce(e.event_type, 'an event not in the log'), i.event_id, coalesce(e.stream_id, '?'), coalesce(e.stream_version::text, '?'),
                i.attempts, to_char(i.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), coalesce(i.reason, 'no reason'))
            FROM consumer_inbox AS i
            LEFT JOIN events AS e ON e.event_id = i.event_id
            WHERE i.outcome = 'dead'
            UNION ALL
            SELECT format('consumer %s still has a redrive of event %s pending, asked at %s', consumer, event_id,
                to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
            FROM consumer_redrive
            """#)

    // MARK: LGPD

    /// Erasures are finished: after DadosPessoaisApagados the member's personal-data key is gone
    /// (crypto-shredding: their sealed fields read back as erased), and the erasure timer's
    /// checkpoint (`usuarios:apagamentos`, over the `usuario` streams, moved only once a batch's
    /// keys are gone) is at the last `usuario` event.
    static let erasuresDone = FaultInvariant(
        name: "erasures_done",
        sql: #"""
            SELECT format('member %s was erased (%s v%s) but their personal-data key still exists', k.subject_id, e.stream_id, e.stream_version)
            FROM events AS e
            JOIN personal_data_keys AS k ON k.subject_id::text = lower(e.data->>'usuarioId')
            WHERE e.category = 'usuario' AND e.event_type = 'DadosPessoaisApagados'
            UNION ALL
            SELECT format('checkpoint usuarios:apagamentos is at %s/%s, not at the last usuario event %s/%s', c.tx_id, c.position,
                h.tx_id, h.position)
            FROM subscription_checkpoints AS c
            CROSS JOIN LATERAL (
                SELECT tx_id, position FROM events WHERE category = 'usuario' ORDER BY tx_id DESC, position DESC LIMIT 1
            ) AS h
            WHERE c.name = 'usuarios:apagamentos' AND (c.tx_id, c.position) <> (h.tx_id, h.position)
            """#)

    /// Every booking the load was answered 201 for is in the log: an answer is a promise. A
    /// store that acknowledges an append it then loses (a commit taken for done before it was,
    /// docs/reliability.md, session 61) breaks it unseen by every other invariant, which read
    /// only the log.
    static func acknowledgedBookingsStored(_ ids: [String]) -> FaultInvariant {
        FaultInvariant(
            name: "acknowledged_bookings_stored",
            sql: ids.isEmpty
                ? "SELECT 'x' WHERE false"
                : """
                SELECT format('booking %s was answered 201 but is not in the log', a.id)
                FROM unnest(ARRAY[\(ids.map(literal).joined(separator: ","))]::text[]) AS a(id)
                WHERE NOT EXISTS (SELECT 1 FROM events WHERE stream_id = 'reserva-' || lower(a.id) AND stream_version = 1)
                """)
    }

    /// `text` as an SQL string literal.
    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

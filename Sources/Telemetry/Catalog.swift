/// The names this project measures, with their help texts and histogram buckets: the one
/// place they are written in Swift. `infra/observability/metrics.txt` lists the same names for
/// the dashboards and alerts; a test scrapes every deployable and finds each of them.
public enum Catalog {
    // HTTP (the gateway's and every service's edge).
    public static let httpRequests = "coworkflow_http_requests_total"
    public static let httpDuration = "coworkflow_http_request_duration_seconds"
    // The event store.
    public static let storeAppends = "coworkflow_store_appends_total"
    public static let storeAppendsPerCommit = "coworkflow_store_appends_per_commit"
    public static let storeEventsAppended = "coworkflow_store_events_appended_total"
    public static let storeAppendDuration = "coworkflow_store_append_duration_seconds"
    public static let storeReadDuration = "coworkflow_store_read_duration_seconds"
    public static let poolInUse = "coworkflow_store_pool_connections_in_use"
    public static let poolMax = "coworkflow_store_pool_connections_max"
    public static let poolWaiting = "coworkflow_store_pool_waiting"
    public static let storeHead = "coworkflow_store_head_sequence"
    // The bus.
    public static let busPublished = "coworkflow_bus_published_total"
    public static let busConfirmed = "coworkflow_bus_confirmed_total"
    public static let busConsumed = "coworkflow_bus_consumed_total"
    public static let busRedelivered = "coworkflow_bus_redelivered_total"
    public static let busDeadLettered = "coworkflow_bus_dead_lettered_total"
    public static let busConsumerLag = "coworkflow_bus_consumer_lag_seconds"
    // Read models and the relay.
    public static let subscriptionLag = "coworkflow_subscription_lag_events"
    public static let projectionFailing = "coworkflow_projection_failing"
    // Timers.
    public static let timerDue = "coworkflow_timer_due"
    public static let timerFired = "coworkflow_timer_fired_total"
    public static let timerLateness = "coworkflow_timer_lateness_seconds"
    // The business.
    public static let bookings = "coworkflow_bookings_total"
    public static let payments = "coworkflow_payments_total"
    public static let emails = "coworkflow_emails_total"
    // The process (the names of Prometheus' own client libraries).
    public static let processCPU = "process_cpu_seconds_total"
    public static let processRSS = "process_resident_memory_bytes"
    public static let processVirtual = "process_virtual_memory_bytes"
    public static let processOpenFDs = "process_open_fds"
    public static let processMaxFDs = "process_max_fds"
    public static let processStart = "process_start_time_seconds"

    static let helps: [String: String] = [
        httpRequests: "HTTP requests answered, by method, route template and status.",
        httpDuration: "Time to answer an HTTP request, by method, route template and status.",
        storeAppends: "Appends, by outcome (ok, conflict: a stream was not at its expected version, error).",
        storeAppendsPerCommit: "Appends committed by one transaction: 1 in PostgreSQL; in the embedded store, all that wait for its writer.",
        storeEventsAppended: "Events this process appended to the store.",
        storeAppendDuration: "Time of an append transaction, conflicts and errors included.",
        storeReadDuration: "Time of a read of the store, by read (stream, streams, all, category).",
        poolInUse: "Store connections lent out now.",
        poolMax: "Store connections the pool may open.",
        poolWaiting: "Requests waiting for a store connection now.",
        storeHead: "Sequence number of the newest event readable in global order.",
        busPublished: "Events handed to the broker (the relay, dead letters).",
        busConfirmed: "Events the broker confirmed (publisher confirms).",
        busConsumed: "Events delivered to a consumer, by consumer.",
        busRedelivered: "Deliveries the broker marked as redelivered, by consumer.",
        busDeadLettered: "Events set aside as dead letters, by consumer.",
        busConsumerLag: "Time from an event's recording in the store to its delivery to a consumer.",
        subscriptionLag: "Events a subscription (relay, projection) is behind the store's head.",
        projectionFailing: "1 while a projection runner of this process cannot follow the log (see /saude).",
        timerDue: "Due items a timer found on its last pass, by timer.",
        timerFired: "Items a timer carried out, by timer.",
        timerLateness: "Time between an item falling due and a timer carrying it out, by timer.",
        bookings: "Booking events appended by this process, by status reached.",
        payments: "Payment events appended by this process, by outcome.",
        emails: "E-mails handed to the mail server, by outcome (sent, failed).",
        processCPU: "Total user and system CPU time spent in seconds.",
        processRSS: "Resident memory size in bytes.",
        processVirtual: "Virtual memory size in bytes.",
        processOpenFDs: "Number of open file descriptors.",
        processMaxFDs: "Maximum number of open file descriptors.",
        processStart: "Start time of the process since unix epoch in seconds.",
    ]

    static func help(_ name: String) -> String { helps[name] ?? "" }

    /// Request and store latencies: 1 ms to 10 s.
    static let latency: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// Lags and lateness: 10 ms to an hour (a timer fires within a second or two when well).
    static let lag: [Duration] = [
        .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
        .seconds(15), .seconds(60), .seconds(300), .seconds(900), .seconds(3_600),
    ]

    static func buckets(_ name: String) -> [Duration] {
        name == busConsumerLag || name == timerLateness ? lag : latency
    }

    static let valueBuckets: [Double] = [1, 5, 10, 50, 100, 500, 1_000, 5_000, 10_000]
}

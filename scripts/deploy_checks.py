#!/usr/bin/env python3
"""The deployment files' own checks and the renderer deploy.yml uses.

    deploy_checks.py deployables [--json]      the deployables: ecs-tasks/*.json less the one-off tasks
    deploy_checks.py render --context FILE --task NAME --tag TAG
                                               ecs-tasks/NAME.json with its ${...} placeholders filled
                                               from the deploy context (SSM, infra/terraform/deploy_context.tf)
    deploy_checks.py tasks                     every ecs-tasks/*.json against botocore's ECS
                                               RegisterTaskDefinition input shape, Fargate cpu/memory
                                               pairs and this project's rules for task definitions
    deploy_checks.py consistency [--compose-json FILE]
                                               every deployable in the Dockerfile, ecs-tasks/, Terraform,
                                               compose and the deploy matrix; every variable a task or
                                               compose sets is one the program reads; AMQP_URL where a
                                               queue is consumed; the payment provider's settings
    deploy_checks.py read-variables            the environment variables the program reads
    deploy_checks.py observability --promtool PATH
                                               infra/observability/: metrics.txt, the alert and
                                               recording rules, the Grafana dashboard (every
                                               expression parsed by promtool), the collector's
                                               configuration and the CloudWatch alarms use only
                                               the names in metrics.txt, and agree

`deployables` and `render` need only the standard library (they run on GitHub's runners);
`tasks` needs botocore, `consistency` PyYAML and python-hcl2, `observability` PyYAML and
promtool (scripts/check-deploy installs them). Exit status 1 and one line per problem on any failure.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TASKS_DIR = ROOT / "ecs-tasks"
DOCKERFILE = ROOT / "infra" / "docker" / "Dockerfile"
COMPOSE = ROOT / "infra" / "docker-compose.yml"
TERRAFORM = ROOT / "infra" / "terraform"
DEPLOY_WORKFLOW = ROOT / ".github" / "workflows" / "deploy.yml"
SOURCES = ROOT / "Sources"
# Sources that are not part of the `coworkflow` executable the images ship.
NOT_SHIPPED = {"CoworkflowBench"}

PLACEHOLDER = re.compile(r"\$\{([a-z][a-z0-9_]*)\}")
# Placeholders filled per task (the rest are shared): render() and tasks.tf must agree.
OWN_PLACEHOLDERS = {"image", "execution_role_arn", "log_group"}

# Variables that carry credentials: only ever as secrets (valueFrom), never plain values.
SECRET_VARIABLES = {
    "DB_PASSWORD", "DB_MIGRATION_PASSWORD", "DATABASE_URL", "JWT_SECRET", "EMAIL_HASH_KEY",
    "AMQP_URL", "SMTP_PASSWORD", "COWORKFLOW_ADMIN_PASSWORD", "PSP_API_KEY", "PSP_WEBHOOK_SECRET",
}

# The payment provider's settings: pagamentos and the gateway read them alike.
PSP_VARIABLES = {"PSP_URL", "PSP_API_KEY", "PSP_WEBHOOK_SECRET"}
# The sandbox provider's own server on compose (`serve --service sandbox`; no ECS task).
SANDBOX = "sandbox"
SANDBOX_WEBHOOK_PATH = "/api/pagamentos/webhooks/sandbox"

# Valid Fargate task sizes: cpu units -> memory (MiB) allowed with it.
FARGATE_SIZES = {
    256: {512, 1024, 2048},
    512: set(range(1024, 4096 + 1, 1024)),
    1024: set(range(2048, 8192 + 1, 1024)),
    2048: set(range(4096, 16384 + 1, 1024)),
    4096: set(range(8192, 30720 + 1, 1024)),
    8192: set(range(16384, 61440 + 1, 4096)),
    16384: set(range(32768, 122880 + 1, 8192)),
}

# Task-level fields infra/terraform/ecs.tf passes to aws_ecs_task_definition (others would be
# dropped by Terraform yet registered by deploy.yml: the two would differ).
TERRAFORM_TASK_FIELDS = {
    "family", "requiresCompatibilities", "networkMode", "cpu", "memory", "executionRoleArn",
    "taskRoleArn", "containerDefinitions", "runtimePlatform", "volumes",
}

HEALTHCHECK = ["CMD", "/usr/local/bin/healthcheck"]
FRONTEND = "frontend"

# The metrics collector beside every backend deployable (infra/terraform/observability.tf): the
# second container of its task definition, with these placeholders. Terraform and render() leave
# it out when the deploy context's observability_enabled is "false".
COLLECTOR = "aws-otel-collector"
COLLECTOR_CONFIG_SECRET = {"name": "AOT_CONFIG_CONTENT", "valueFrom": "${collector_config_parameter_arn}"}
# MiB the application keeps beside the collector's hard memory limit.
APP_MEMORY_FLOOR = 256

# Traces (Sources/coworkflow/TraceExport.swift: on when OTEL_EXPORTER_OTLP_ENDPOINT is set and not
# empty). A task with the collector sends its spans to the collector's OTLP/HTTP receiver on
# loopback (${otlp_endpoint}: empty, so tracing off, when observability_enabled is false), the
# gateway sampling trace_sampling_ratio of the requests and every service following its caller
# (parent-based). A task without the collector has nowhere to send them.
TRACE_ENVIRONMENT = {
    "OTEL_EXPORTER_OTLP_ENDPOINT": "${otlp_endpoint}",
    "OTEL_TRACES_SAMPLER": "parentbased_traceidratio",
    "OTEL_TRACES_SAMPLER_ARG": "${trace_sampling_ratio}",
}
# Would send spans past ${otlp_endpoint} (the program prefers it), with or without a collector.
TRACE_ENDPOINT_OVERRIDE = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
# tasks.tf: the endpoint follows observability_enabled (the URL is checked against the
# collector's receiver by `observability`).
OTLP_ENDPOINT_TF = re.compile(r'^\s*otlp_endpoint\s*=\s*var\.observability_enabled\s*\?\s*"([^"]*)"\s*:\s*""\s*$', re.M)
# Compose leaves tracing off unless the developer names a receiver.
COMPOSE_OTLP_ENDPOINT = "${OTEL_EXPORTER_OTLP_ENDPOINT:-}"


class Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, what: str) -> None:
        self.items.append(f"{where}: {what}")

    def finish(self, ok_message: str) -> int:
        for item in self.items:
            print(f"FAIL {item}", file=sys.stderr)
        if self.items:
            print(f"{len(self.items)} problem(s)", file=sys.stderr)
            return 1
        print(ok_message)
        return 0


# --- the task files ------------------------------------------------------------------------

def load_tasks() -> dict[str, dict]:
    tasks = {}
    for path in sorted(TASKS_DIR.glob("*.json")):
        tasks[path.stem] = json.loads(path.read_text())
    if not tasks:
        raise SystemExit(f"no task definitions in {TASKS_DIR}")
    return tasks


def container(task: dict) -> dict:
    return (task.get("containerDefinitions") or [{}])[0]


def labels(task: dict) -> dict:
    return container(task).get("dockerLabels") or {}


def is_one_off(task: dict) -> bool:
    return labels(task).get("coworkflow.run") == "one-off"


def deployables(tasks: dict[str, dict] | None = None) -> list[str]:
    tasks = tasks if tasks is not None else load_tasks()
    return [name for name, task in tasks.items() if not is_one_off(task)]


def names_in(items: list | None) -> list[str]:
    return [item.get("name") for item in items or []]


# --- rendering -----------------------------------------------------------------------------

def render_text(text: str, values: dict[str, str], where: str) -> dict:
    missing = sorted(set(PLACEHOLDER.findall(text)) - set(values))
    if missing:
        raise SystemExit(f"{where}: no value for placeholder(s) {', '.join(missing)}")
    # Values land inside JSON strings: escape them as JSON does.
    rendered = PLACEHOLDER.sub(lambda match: json.dumps(str(values[match.group(1)]))[1:-1], text)
    if "${" in rendered or "%{" in rendered:
        raise SystemExit(f"{where}: a '${{' or '%{{' is left after rendering")
    return json.loads(rendered)


def context_values(context: dict, task: str, tag: str) -> dict[str, str]:
    own = context["tasks"][task]
    values = dict(context["template"])
    values.update(
        execution_role_arn=own["execution_role_arn"],
        log_group=own["log_group"],
        image=f"{own['repository_url']}:{tag}",
    )
    return values


def render(context: dict, task: str, tag: str) -> dict:
    path = TASKS_DIR / f"{task}.json"
    values = context_values(context, task, tag)
    rendered = without_collector(render_text(path.read_text(), values, str(path.relative_to(ROOT))), values)
    return hosting(rendered, context.get("gateway_hosts") or [], values) if task == "gateway" else rendered


def hosting(task: dict, hosts: list[str], values: dict[str, str], tasks: dict[str, dict] | None = None) -> dict:
    """The gateway's task as Terraform's gateway_hosts changes it (infra/terraform/tasks.tf):
    the hosted services' SERVICE_<NAME>_URL leave its environment, and AMQP_URL joins its
    secrets when one of them consumes a queue (docs/deploy.md, "Choosing the shape")."""
    if not hosts:
        return task
    tasks = tasks or load_tasks()
    c = container(task)
    urls = {f"SERVICE_{name.upper()}_URL" for name in hosts}
    c["environment"] = [item for item in c.get("environment") or [] if item.get("name") not in urls]
    broker = any("AMQP_URL" in names_in(container(tasks.get(name, {})).get("secrets")) for name in hosts)
    if broker and "AMQP_URL" not in names_in(c.get("secrets")):
        c["secrets"] = [*(c.get("secrets") or []), {"name": "AMQP_URL", "valueFrom": values["amqp_secret_arn"]}]
    return task


def without_collector(task: dict, values: dict[str, str]) -> dict:
    """The task definition without the collector container when observability is off (as
    infra/terraform/tasks.tf does)."""
    if values.get("observability_enabled") == "false":
        task["containerDefinitions"] = [c for c in task.get("containerDefinitions") or [] if c.get("name") != COLLECTOR]
    return task


def sample_context(tasks: dict[str, dict], template_names: set[str]) -> dict:
    """A deploy context with plausible values, for validating rendered task definitions."""
    account, region = "123456789012", "sa-east-1"
    values = {}
    for name in template_names:
        if name.endswith("_secret_arn"):
            values[name] = f"arn:aws:secretsmanager:{region}:{account}:secret:coworkflow/{name[:-11]}-AbCdEf"
        elif name.endswith("_role_arn"):
            values[name] = f"arn:aws:iam::{account}:role/coworkflow-{name[:-9]}"
        elif name == "region":
            values[name] = region
        elif name.endswith("_parameter_arn"):
            values[name] = f"arn:aws:ssm:{region}:{account}:parameter/coworkflow/{name[:-14]}"
        elif name == "observability_enabled":
            values[name] = "true"
        elif name == "collector_image":
            values[name] = "public.ecr.aws/aws-observability/aws-otel-collector:v0.0.0"
        elif name == "otlp_endpoint":
            values[name] = "http://127.0.0.1:4318"
        elif name == "trace_sampling_ratio":
            values[name] = "0.05"
        elif name.endswith("_port"):
            values[name] = "5432"
        else:
            values[name] = f"sample-{name}"
    return {
        "template": values,
        "tasks": {
            name: {
                "execution_role_arn": f"arn:aws:iam::{account}:role/coworkflow-{name}-execution",
                "log_group": f"/ecs/coworkflow/{name}",
                "repository_url": f"{account}.dkr.ecr.{region}.amazonaws.com/coworkflow/{name}",
            }
            for name in tasks
        },
    }


# --- what Terraform fills ------------------------------------------------------------------

def terraform_placeholders() -> tuple[set[str], set[str]]:
    """Keys of local.task_template_common and of local.task_template_own's objects (tasks.tf)."""
    text = (TERRAFORM / "tasks.tf").read_text()

    def keys_of(local: str, inner: bool) -> set[str]:
        match = re.search(rf"^\s*{local}\s*=\s*\{{(.*?)^\s*\}}\s*$", text, re.S | re.M)
        if not match:
            raise SystemExit(f"infra/terraform/tasks.tf: cannot find local {local}")
        body = match.group(1)
        if inner:
            # for name in ... : name => { key = ..., ... }
            # (the match above ends at the inner object's closing brace)
            inner_match = re.search(r"=>\s*\{(.*)", body, re.S)
            body = inner_match.group(1) if inner_match else ""
        return set(re.findall(r"^\s*([a-z][a-z0-9_]*)\s*=", body, re.M))

    return keys_of("task_template_common", False), keys_of("task_template_own", True)


# --- tasks: botocore shape, Fargate sizes, rules --------------------------------------------

def check_tasks() -> int:
    import botocore.session
    from botocore.exceptions import ParamValidationError
    from botocore.validate import validate_parameters

    problems = Problems()
    tasks = load_tasks()
    shape = botocore.session.get_session().get_service_model("ecs").operation_model("RegisterTaskDefinition").input_shape
    common, own = terraform_placeholders()
    if own != OWN_PLACEHOLDERS:
        problems.add("infra/terraform/tasks.tf", f"task_template_own fills {sorted(own)}, render() fills {sorted(OWN_PLACEHOLDERS)}")
    known = common | own
    context = sample_context(tasks, common)
    backend = {name for name in deployables(tasks) if name != FRONTEND}

    for name, task in tasks.items():
        where = f"ecs-tasks/{name}.json"
        text = (TASKS_DIR / f"{name}.json").read_text()
        unknown = sorted(set(PLACEHOLDER.findall(text)) - known)
        if unknown:
            problems.add(where, f"placeholder(s) Terraform does not fill: {', '.join(unknown)}")
            continue
        if "%{" in text or "$${" in text:
            problems.add(where, "Terraform template directives or escapes ('%{', '$${') are not allowed")
        values = context_values(context, name, "0123456789abcdef")
        # As deployed, with the collector and (observability_enabled false) without it and with
        # an empty otlp_endpoint, as tasks.tf fills it then.
        for variant in ("true", "false"):
            variant_values = {**values, "observability_enabled": variant}
            if variant == "false":
                variant_values["otlp_endpoint"] = ""
            rendered = without_collector(render_text(text, variant_values, where), variant_values)
            try:
                validate_parameters(rendered, shape)
            except ParamValidationError as error:
                for line in str(error).splitlines():
                    if line.strip() and not line.startswith("Parameter validation failed"):
                        problems.add(where, f"RegisterTaskDefinition: {line.strip()}")

        extra = sorted(set(task) - TERRAFORM_TASK_FIELDS)
        if extra:
            problems.add(where, f"task fields infra/terraform/ecs.tf does not pass on: {', '.join(extra)}")
        if task.get("family") != f"${{name_prefix}}-{name}":
            problems.add(where, f"family must be \"${{name_prefix}}-{name}\"")
        if task.get("requiresCompatibilities") != ["FARGATE"] or task.get("networkMode") != "awsvpc":
            problems.add(where, "must be Fargate (requiresCompatibilities [\"FARGATE\"]) with networkMode awsvpc")
        try:
            cpu, memory = int(task.get("cpu", "")), int(task.get("memory", ""))
            if memory not in FARGATE_SIZES.get(cpu, set()):
                problems.add(where, f"cpu {cpu} / memory {memory} is not a Fargate size")
        except ValueError:
            problems.add(where, "cpu and memory must be task-level numbers (as strings)")
        for field, value in (("executionRoleArn", "${execution_role_arn}"), ("taskRoleArn", "${task_role_arn}")):
            if task.get(field) != value:
                problems.add(where, f"{field} must be {value}")

        definitions = task.get("containerDefinitions") or []
        if not definitions:
            problems.add(where, "no container")
            continue
        c = definitions[0]
        check_collector(problems, where, name, task, definitions[1:], wanted=name in backend and not is_one_off(task))
        if any(item.get("containerName") == COLLECTOR for item in c.get("dependsOn") or []):
            problems.add(where, f"{name} must not wait for {COLLECTOR}: a collector that does not start would keep the service down")
        if c.get("name") != name or c.get("image") != "${image}" or c.get("essential") is not True:
            problems.add(where, f"the container is named {name}, runs ${{image}} and is essential")
        if c.get("readonlyRootFilesystem") is not True:
            problems.add(where, "readonlyRootFilesystem must be true")
        if str(c.get("user", "")).split(":")[0] in ("", "0", "root"):
            problems.add(where, "user must be set and not root")
        if c.get("privileged"):
            problems.add(where, "privileged containers are not allowed")
        stop = c.get("stopTimeout")
        if not isinstance(stop, int) or not 2 <= stop <= 120:
            problems.add(where, "stopTimeout must be set (2-120 s on Fargate) to let SIGTERM drain requests")
        log = c.get("logConfiguration") or {}
        options = log.get("options") or {}
        if log.get("logDriver") != "awslogs" or options.get("awslogs-group") != "${log_group}" \
                or options.get("awslogs-region") != "${region}" or options.get("awslogs-stream-prefix") != name:
            problems.add(where, f"logConfiguration: awslogs to ${{log_group}} in ${{region}}, stream prefix {name}")

        environment, secrets = c.get("environment") or [], c.get("secrets") or []
        env_names, secret_names = names_in(environment), names_in(secrets)
        check_traces(problems, where, environment, secrets, has_collector=any(d.get("name") == COLLECTOR for d in definitions[1:]))
        for duplicate in sorted({n for n in env_names + secret_names if (env_names + secret_names).count(n) > 1}):
            problems.add(where, f"{duplicate} is set twice")
        for variable in sorted(set(env_names) & SECRET_VARIABLES):
            problems.add(where, f"{variable} is a plain environment value: it must come from Secrets Manager (secrets/valueFrom)")
        for item in secrets:
            if not re.fullmatch(r"\$\{[a-z0-9_]+_secret_arn\}(:[A-Za-z0-9_]+::)?", item.get("valueFrom", "")):
                problems.add(where, f"secret {item.get('name')}: valueFrom must be ${{<x>_secret_arn}} or ${{<x>_secret_arn}}:<json key>::")

        task_labels = labels(task)
        if is_one_off(task):
            if task_labels.get("coworkflow.image") not in backend:
                problems.add(where, "a one-off task's coworkflow.image label must name a backend deployable")
            if c.get("portMappings"):
                problems.add(where, "a one-off task listens on no port")
            continue
        if task_labels.get("coworkflow.ingress") not in ("alb", "gateway", "none"):
            problems.add(where, "label coworkflow.ingress must be alb, gateway or none")
        if task_labels.get("coworkflow.scaling") not in ("cpu", "fixed"):
            problems.add(where, "label coworkflow.scaling must be cpu or fixed")
        health = c.get("healthCheck") or {}
        if health.get("command") != HEALTHCHECK:
            problems.add(where, f"healthCheck command must be {HEALTHCHECK} (GET /saude)")
        ports = [mapping.get("containerPort") for mapping in c.get("portMappings") or []]
        if len(ports) != 1:
            problems.add(where, "exactly one port mapping")
        elif name in backend:
            port_value = next((item.get("value") for item in environment if item.get("name") == "PORT"), None)
            if port_value != str(ports[0]):
                problems.add(where, f"PORT ({port_value}) must equal the container port ({ports[0]})")
    return problems.finish(f"ecs-tasks: {len(tasks)} task definitions valid (botocore RegisterTaskDefinition, Fargate sizes, rules)")


def check_traces(problems: Problems, where: str, environment: list[dict], secrets: list[dict], has_collector: bool) -> None:
    """The application's OTEL_* settings: the collector's receiver and the sampler where there is
    a collector, no endpoint where there is none, never a secret."""
    for variable in sorted(n for n in names_in(secrets) if str(n).startswith("OTEL_")):
        problems.add(where, f"{variable} is a setting, not a credential: a plain environment value, never from secrets")
    values = {item.get("name"): item.get("value") for item in environment}
    if TRACE_ENDPOINT_OVERRIDE in values:
        problems.add(where, f"{TRACE_ENDPOINT_OVERRIDE} must not be set: it overrides OTEL_EXPORTER_OTLP_ENDPOINT "
                            "(${otlp_endpoint}, empty when observability_enabled is false)")
    if has_collector:
        for variable, value in TRACE_ENVIRONMENT.items():
            if values.get(variable) != value:
                problems.add(where, f"{variable} must be {value} (traces to the {COLLECTOR} beside it, "
                                    f"sampled parent-based at trace_sampling_ratio), is {values.get(variable)!r}")
    elif "OTEL_EXPORTER_OTLP_ENDPOINT" in values:
        problems.add(where, f"OTEL_EXPORTER_OTLP_ENDPOINT must not be set: no {COLLECTOR} in this task receives spans")


def check_collector(problems: Problems, where: str, name: str, task: dict, others: list[dict], wanted: bool) -> None:
    """The containers after the application's: the metrics collector for a backend deployable
    (infra/terraform/observability.tf), nothing otherwise."""
    if not wanted:
        if others:
            problems.add(where, f"exactly one container (only a backend deployable has a second one, {COLLECTOR})")
        return
    if len(others) != 1 or others[0].get("name") != COLLECTOR:
        problems.add(where, f"two containers: {name}, then {COLLECTOR} (its /metrics to CloudWatch)")
        return
    c = others[0]
    what = f"{COLLECTOR} container"
    if c.get("image") != "${collector_image}":
        problems.add(where, f"{what}: image must be ${{collector_image}} (the pinned tag in variables.tf)")
    if c.get("essential") is not False:
        problems.add(where, f"{what}: essential must be false (a collector that stops must not stop the service)")
    if not (c.get("restartPolicy") or {}).get("enabled"):
        problems.add(where, f"{what}: restartPolicy must be enabled (ECS restarts a non-essential container that exits)")
    if c.get("readonlyRootFilesystem") is not True:
        problems.add(where, f"{what}: readonlyRootFilesystem must be true")
    if str(c.get("user", "")).split(":")[0] in ("", "0", "root"):
        problems.add(where, f"{what}: user must be set and not root")
    if c.get("privileged"):
        problems.add(where, f"{what}: privileged containers are not allowed")
    if c.get("portMappings"):
        problems.add(where, f"{what}: no port mappings (it scrapes 127.0.0.1:8080 and listens on loopback only)")
    if c.get("secrets") != [COLLECTOR_CONFIG_SECRET]:
        problems.add(where, f"{what}: secrets must be exactly {COLLECTOR_CONFIG_SECRET}")
    environment = {item.get("name"): item.get("value") for item in c.get("environment") or []}
    for variable, value in (("COWORKFLOW_SERVICE", name), ("METRICS_LOG_GROUP", "${metrics_log_group}"), ("AWS_REGION", "${region}")):
        if environment.get(variable) != value:
            problems.add(where, f"{what}: {variable} must be {value} (infra/observability/adot-config.yaml reads it)")
    memory, reservation = c.get("memory"), c.get("memoryReservation")
    if not isinstance(memory, int) or not isinstance(reservation, int) or not 0 < reservation <= memory:
        problems.add(where, f"{what}: memoryReservation and a hard limit (memory), the reservation at most the limit")
    else:
        try:
            left = int(task.get("memory", "")) - memory
        except ValueError:
            left = None
        if left is not None and left < APP_MEMORY_FLOOR:
            problems.add(where, f"{what}: its {memory} MiB limit leaves {name} {left} MiB of the task's memory (at least {APP_MEMORY_FLOOR}: raise the task size)")
    log = c.get("logConfiguration") or {}
    options = log.get("options") or {}
    if log.get("logDriver") != "awslogs" or options.get("awslogs-group") != "${log_group}" \
            or options.get("awslogs-region") != "${region}" or options.get("awslogs-stream-prefix") != name:
        problems.add(where, f"{what}: logConfiguration: awslogs to ${{log_group}} in ${{region}}, stream prefix {name}")


# --- what the program reads ----------------------------------------------------------------

def program_deployables() -> tuple[list[str], list[str]]:
    """Deployable cases (the contexts, Sources/Domain/Core/EventCatalog.swift) and the built
    ones (Sources/App/Deployable.swift)."""
    text = (SOURCES / "App" / "Deployable.swift").read_text()
    contexts = (SOURCES / "Domain" / "Core" / "EventCatalog.swift").read_text()
    enum = re.search(r"enum Contexto\b[^{]*\{\s*case ([a-z, ]+)\n", contexts)
    built = re.search(r"static let built: \[Deployable\] = \[([^\]]*)\]", text)
    if not enum or not built:
        raise SystemExit("cannot find `enum Contexto` cases (Domain/Core/EventCatalog.swift) or `Deployable.built` (App/Deployable.swift)")
    cases = [item.strip() for item in enum.group(1).split(",") if item.strip()]
    built_cases = [item.strip().lstrip(".") for item in built.group(1).split(",") if item.strip()]
    return cases, built_cases


def program_consumers() -> list[str]:
    """The services with reactions, each on its own AMQP queue (`Negocio.reagem`)."""
    text = (SOURCES / "App" / "Negocio.swift").read_text()
    match = re.search(r"static let reagem: \[Deployable\] = \[([^\]]*)\]", text)
    if not match:
        raise SystemExit("Sources/App/Negocio.swift: cannot find `Negocio.reagem`")
    return [item.strip().lstrip(".") for item in match.group(1).split(",") if item.strip()]


def read_variables() -> set[str]:
    """Names the shipped program reads: environment["NAME"], getenv("NAME"), a helper that
    reads environment[name] called with literal names, and SERVICE_<NAME>_URL of the built
    services. Any other way of reading fails loudly, so the list never silently shrinks."""
    names: set[str] = set()
    unresolved: list[str] = []
    _, built = program_deployables()
    for path in sorted(SOURCES.rglob("*.swift")):
        relative = path.relative_to(SOURCES)
        if relative.parts[0] in NOT_SHIPPED:
            continue
        text = path.read_text()
        lines = text.splitlines()
        for number, line in enumerate(lines, 1):
            for match in re.finditer(r"getenv\(\s*\"([A-Z][A-Z0-9_]*)\"\s*\)", line):
                names.add(match.group(1))
            for match in re.finditer(r"environment\[([^\]]*)\]", line):
                subscript = match.group(1).strip()
                rest = line[match.end():].lstrip()
                if rest.startswith("=") and not rest.startswith("=="):
                    continue  # a write (for a child process), not a read
                literal = re.fullmatch(r"\"([A-Z][A-Z0-9_]*)\"", subscript)
                if literal:
                    names.add(literal.group(1))
                elif re.fullmatch(r"\w+\.urlVariable", subscript):
                    definition = (SOURCES / "App" / "Deployable.swift").read_text()
                    if 'var urlVariable: String { "SERVICE_\\(rawValue.uppercased())_URL" }' not in definition:
                        unresolved.append(f"{relative}:{number}: urlVariable is no longer SERVICE_<NAME>_URL")
                    names.update(f"SERVICE_{service.upper()}_URL" for service in built)
                elif re.fullmatch(r"[a-z]\w*", subscript):
                    function = None
                    for previous in reversed(lines[:number]):
                        found = re.search(r"func (\w+)\(", previous)
                        if found:
                            function = found.group(1)
                            break
                    called = re.findall(rf"\b{function}\(\s*\"([A-Z][A-Z0-9_]*)\"", text) if function else []
                    if not called:
                        unresolved.append(f"{relative}:{number}: environment[{subscript}] reads a name this check cannot tell")
                    names.update(called)
                else:
                    unresolved.append(f"{relative}:{number}: environment[{subscript}] reads a name this check cannot tell")
    if unresolved:
        raise SystemExit("cannot determine every variable the program reads (teach scripts/deploy_checks.py):\n  "
                         + "\n  ".join(unresolved))
    return names


# --- consistency ---------------------------------------------------------------------------

def dockerfile_stages() -> dict[str, list[str]]:
    """Stage name -> its lines."""
    stages: dict[str, list[str]] = {}
    current = None
    for line in DOCKERFILE.read_text().splitlines():
        match = re.match(r"FROM\s+\S+\s+AS\s+(\S+)\s*$", line, re.I)
        if match:
            current = match.group(1)
            stages[current] = [line]
        elif current:
            stages[current].append(line)
    return stages


def load_compose(compose_json: str | None) -> dict:
    if compose_json:
        return json.loads(Path(compose_json).read_text())
    import yaml
    return yaml.safe_load(COMPOSE.read_text())


def check_consistency(compose_json: str | None) -> int:
    import hcl2
    import yaml

    problems = Problems()
    tasks = load_tasks()
    deployable_names = deployables(tasks)
    one_off = [name for name in tasks if name not in deployable_names]
    cases, built = program_deployables()
    expected = {"gateway", "projections", FRONTEND} | set(cases)
    backend = [name for name in deployable_names if name != FRONTEND]

    # ecs-tasks/ against the program (DESIGN §9: gateway, projections, the services (Contexto), frontend).
    for name in sorted(expected - set(deployable_names)):
        problems.add("ecs-tasks/", f"no {name}.json for deployable {name}")
    for name in sorted(set(deployable_names) - expected):
        problems.add(f"ecs-tasks/{name}.json", "not a deployable the program knows (gateway, projections, Deployable cases, frontend)")
    for name in backend:
        command = container(tasks[name]).get("command")
        if command != ["serve", "--service", name, "--host", "0.0.0.0"]:
            problems.add(f"ecs-tasks/{name}.json", f"command must be serve --service {name} --host 0.0.0.0")
    if container(tasks.get(FRONTEND, {})).get("environment") or container(tasks.get(FRONTEND, {})).get("secrets"):
        problems.add(f"ecs-tasks/{FRONTEND}.json", "nginx reads no configuration variables: set none")

    # Dockerfile: one target per deployable.
    stages = dockerfile_stages()
    for name in deployable_names:
        if name not in stages:
            problems.add("infra/docker/Dockerfile", f"no target (FROM ... AS {name}) for deployable {name}")
        elif name in backend:
            body = "\n".join(stages[name])
            if not re.search(rf"^FROM runtime AS {name}$", body, re.M) or f'"--service", "{name}"' not in body:
                problems.add("infra/docker/Dockerfile", f"target {name} must be FROM runtime with CMD serve --service {name}")
        elif not re.search(r"^FROM nginx:", stages[name][0]):
            problems.add("infra/docker/Dockerfile", f"target {name} must be the nginx image")

    # Terraform reads the list from ecs-tasks/ and keeps unbuilt services at zero tasks.
    tasks_tf = (TERRAFORM / "tasks.tf").read_text()
    if 'tasks_dir  = "${path.module}/../../ecs-tasks"' not in tasks_tf or 'fileset(local.tasks_dir, "*.json")' not in tasks_tf:
        problems.add("infra/terraform/tasks.tf", "must read the deployables from fileset(\"../../ecs-tasks\", \"*.json\")")
    variables = {}
    for block in hcl2.load((TERRAFORM / "variables.tf").open())["variable"]:
        variables.update(block)
    counts = variables.get("desired_counts", {}).get("default", {})
    counts = counts[0] if isinstance(counts, list) else counts
    for name in sorted(set(counts) - set(deployable_names)):
        problems.add("infra/terraform/variables.tf", f"desired_counts names {name}, which has no ecs-tasks/{name}.json")
    for name in sorted(set(cases) - set(built)):
        if counts.get(name) != 0:
            problems.add("infra/terraform/variables.tf", f"{name} is not built yet (serve --service {name} exits 64): its desired_counts default must be 0")
    alb_tf = (TERRAFORM / "alb.tf").read_text()
    for name in re.findall(r'aws_lb_target_group\.this\["(\w+)"\]', alb_tf):
        if labels(tasks.get(name, {})).get("coworkflow.ingress") != "alb":
            problems.add("infra/terraform/alb.tf", f"routes to {name}, which is not labelled coworkflow.ingress=alb")

    # Compose: every deployable, built from its own target; the same variable names as ECS.
    compose = load_compose(compose_json)
    services = compose.get("services", {})
    for name in deployable_names + one_off:
        if name == "admin":
            continue  # docs/deploy.md: `docker compose exec gateway coworkflow admin create`
        service = services.get(name)
        where = f"infra/docker-compose.yml {name}"
        if service is None:
            problems.add("infra/docker-compose.yml", f"no service {name}")
            continue
        build = service.get("build") or {}
        target = labels(tasks[name]).get("coworkflow.image", name)
        if build.get("target") != target or not str(build.get("dockerfile", "")).endswith("infra/docker/Dockerfile"):
            problems.add(where, f"must build infra/docker/Dockerfile target {target}")
        environment = service.get("environment") or {}
        if isinstance(environment, list):
            environment = dict(item.split("=", 1) if "=" in item else (item, "") for item in environment)
        c = container(tasks[name])
        ecs_names = set(names_in(c.get("environment"))) | set(names_in(c.get("secrets")))
        if set(environment) != ecs_names:
            problems.add(where, f"sets {sorted(set(environment) - ecs_names)} beyond ecs-tasks/{name}.json and lacks {sorted(ecs_names - set(environment))}")
        if name in backend and (service.get("healthcheck") or {}).get("test") != HEALTHCHECK:
            problems.add(where, f"healthcheck test must be {HEALTHCHECK}")

    # Compose traces nothing unless the developer names a receiver (read before interpolation:
    # `config` fills in the shell's variables).
    for name, service in (yaml.safe_load(COMPOSE.read_text()).get("services") or {}).items():
        endpoint = compose_environment(service).get("OTEL_EXPORTER_OTLP_ENDPOINT")
        if endpoint is not None and endpoint != COMPOSE_OTLP_ENDPOINT:
            problems.add(f"infra/docker-compose.yml {name}",
                         f"OTEL_EXPORTER_OTLP_ENDPOINT must be {COMPOSE_OTLP_ENDPOINT} (tracing off unless set), is {endpoint!r}")

    # deploy.yml: the matrix is the deployable list, built from the Dockerfile target.
    workflow = yaml.safe_load(DEPLOY_WORKFLOW.read_text())
    jobs = workflow.get("jobs", {})
    plan_steps = "\n".join(str(step.get("run", "")) for step in jobs.get("plan", {}).get("steps", []))
    if "scripts/deploy_checks.py deployables --json" not in plan_steps:
        problems.add(".github/workflows/deploy.yml", "job plan must list the deployables with scripts/deploy_checks.py deployables --json")
    for job in ("images", "services"):
        matrix = ((jobs.get(job) or {}).get("strategy") or {}).get("matrix") or {}
        if matrix.get("deployable") != "${{ fromJSON(needs.plan.outputs.deployables) }}":
            problems.add(".github/workflows/deploy.yml", f"job {job} must run over fromJSON(needs.plan.outputs.deployables)")
    builds = [step.get("with", {}) for step in (jobs.get("images") or {}).get("steps", []) if "build-push-action" in str(step.get("uses", ""))]
    if not any(item.get("file") == "infra/docker/Dockerfile" and item.get("target") == "${{ matrix.deployable }}" for item in builds):
        problems.add(".github/workflows/deploy.yml", "job images must build infra/docker/Dockerfile with target ${{ matrix.deployable }}")

    # Every variable a task or compose sets is one the program reads.
    read = read_variables()
    coworkflow_containers: dict[str, set[str]] = {}
    for name in backend + one_off:
        c = container(tasks[name])
        coworkflow_containers[f"ecs-tasks/{name}.json"] = set(names_in(c.get("environment"))) | set(names_in(c.get("secrets")))
    for name, service in services.items():
        if str((service.get("build") or {}).get("dockerfile", "")).endswith("infra/docker/Dockerfile") and name != FRONTEND:
            environment = service.get("environment") or {}
            coworkflow_containers[f"infra/docker-compose.yml {name}"] = set(
                environment if isinstance(environment, dict) else [item.split("=", 1)[0] for item in environment])
    for where, variables_set in coworkflow_containers.items():
        for variable in sorted(variables_set - read):
            problems.add(where, f"sets {variable}, which the program does not read")
    for name in backend:
        c = container(tasks[name])
        if "JWT_SECRET" not in names_in(c.get("secrets")):
            problems.add(f"ecs-tasks/{name}.json", "JWT_SECRET is required in distributed mode (the same secret on every deployable)")

    # The gateway finds every built service through Cloud Map, on that service's port; one it
    # has no URL for it hosts itself (docs/deploy.md, "Choosing the shape": check_runtime_needs
    # then asks for AMQP_URL on the gateway if the service reacts to events).
    gateway = {item["name"]: item.get("value") for item in container(tasks.get("gateway", {})).get("environment") or []}
    for service in built:
        variable = f"SERVICE_{service.upper()}_URL"
        task = tasks.get(service, {})
        port = ((container(task).get("portMappings") or [{}])[0]).get("containerPort")
        if variable not in gateway:
            continue
        if gateway.get(variable) != f"http://{service}.${{service_namespace}}:{port}":
            problems.add("ecs-tasks/gateway.json", f"{variable} must be http://{service}.${{service_namespace}}:{port}")
        if labels(task).get("coworkflow.ingress") != "gateway":
            problems.add(f"ecs-tasks/{service}.json", "the gateway calls it: label coworkflow.ingress must be gateway")

    check_runtime_needs(problems, tasks, services, built)
    check_gateway_hosts(problems, tasks, services, built)

    return problems.finish(
        f"consistency: {len(deployable_names)} deployables ({', '.join(deployable_names)}) in the Dockerfile, ecs-tasks/, "
        f"Terraform, compose and the deploy matrix; every variable set is read by the program; "
        f"AMQP_URL where a queue is consumed, the payment provider's settings alike on pagamentos, gateway and sandbox")


def check_gateway_hosts(problems: Problems, tasks: dict[str, dict], services: dict, built: list[str]) -> None:
    """Terraform's gateway_hosts: it accepts exactly the services the gateway calls, and the
    gateway's task rendered to host each of them alone passes the run-time rules (no URL for
    it; AMQP_URL when it consumes a queue)."""
    gateway = container(tasks.get("gateway", {}))
    callable_services = sorted(service for service in built if f"SERVICE_{service.upper()}_URL" in names_in(gateway.get("environment")))
    text = (TERRAFORM / "variables.tf").read_text()
    block = re.search(r'variable "gateway_hosts" \{(.*?)\n\}', text, re.S)
    accepted = re.search(r"contains\(\[([^\]]*)\]", block.group(1)) if block else None
    if accepted is None:
        problems.add("infra/terraform/variables.tf", "variable gateway_hosts must list the services it accepts in its validation")
        return
    listed = sorted(re.findall(r'"([a-z]+)"', accepted.group(1)))
    if listed != callable_services:
        problems.add("infra/terraform/variables.tf", f"gateway_hosts accepts {listed}; the gateway calls {callable_services}")
    for service in callable_services:
        variant = dict(tasks)
        variant["gateway"] = hosting(json.loads(json.dumps(tasks["gateway"])), [service], {"amqp_secret_arn": "${amqp_secret_arn}"}, tasks)
        found = Problems()
        check_runtime_needs(found, variant, services, built)
        for item in found.items:
            if item.startswith("ecs-tasks/gateway.json: "):
                problems.add(f"ecs-tasks/gateway.json with gateway_hosts = [{service}]", item.removeprefix("ecs-tasks/gateway.json: "))
        if f"SERVICE_{service.upper()}_URL" in names_in(container(variant["gateway"]).get("environment")):
            problems.add(f"ecs-tasks/gateway.json with gateway_hosts = [{service}]", f"SERVICE_{service.upper()}_URL is still set")


def compose_environment(service: dict) -> dict[str, str]:
    environment = service.get("environment") or {}
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) if "=" in item else (item, "") for item in environment)
    return {name: "" if value is None else str(value) for name, value in environment.items()}


def check_runtime_needs(problems: Problems, tasks: dict[str, dict], services: dict, built: list[str]) -> None:
    """What the processes need at run time: the broker where a queue is consumed (and nowhere
    else: the broker's security group follows AMQP_URL), the payment provider's settings on
    both its callers, the sandbox server wired to the gateway's webhook, mail files under a
    writable mount (the root file systems are read-only)."""
    consumers = set(program_consumers())
    unknown = sorted(consumers - set(built))
    if unknown:
        problems.add("Sources/App/Negocio.swift", f"Negocio.reagem names {', '.join(unknown)}, not built services")
    gateway_env = {item["name"] for item in container(tasks.get("gateway", {})).get("environment") or []}
    # The gateway hosts, with their reactions, the services it has no URL for.
    hosted = {service for service in built if f"SERVICE_{service.upper()}_URL" not in gateway_env}
    for name, task in tasks.items():
        if is_one_off(task) or name == FRONTEND:
            continue
        c = container(task)
        variables = set(names_in(c.get("environment"))) | set(names_in(c.get("secrets")))
        where = f"ecs-tasks/{name}.json"
        needs_broker = name == "projections" or name in consumers or (name == "gateway" and bool(hosted & consumers))
        if needs_broker and "AMQP_URL" not in variables:
            problems.add(where, "consumes AMQP (the relay, or its reactions' queue): AMQP_URL is required (else it tries guest@127.0.0.1)")
        if not needs_broker and "AMQP_URL" in variables:
            problems.add(where, "consumes no AMQP queue: drop AMQP_URL (it would open the broker's security group to this task)")
        psp = variables & PSP_VARIABLES
        if name in ("pagamentos", "gateway") and psp != PSP_VARIABLES:
            problems.add(where, f"calls the payment provider: needs {', '.join(sorted(PSP_VARIABLES - psp))}")
        if name not in ("pagamentos", "gateway") and psp:
            problems.add(where, f"sets {', '.join(sorted(psp))}: only pagamentos and the gateway call the payment provider")
        outbox = next((item.get("value") for item in c.get("environment") or [] if item.get("name") == "OUTBOX_DIR"), None)
        writable = [m.get("containerPath", "") for m in c.get("mountPoints") or [] if not m.get("readOnly")]
        if outbox is not None and not any(outbox == path or outbox.startswith(path.rstrip("/") + "/") for path in writable):
            problems.add(where, f"OUTBOX_DIR {outbox} is not under a writable mount ({', '.join(writable) or 'none'}): the root file system is read-only")
    if "OUTBOX_DIR" not in {item.get("name") for item in container(tasks.get("notificacoes", {})).get("environment") or []}:
        problems.add("ecs-tasks/notificacoes.json", "OUTBOX_DIR must name a writable directory (mail goes there without SMTP_HOST; ./outbox is read-only)")

    # Compose: pagamentos and the gateway reach the sandbox server with its key, and the
    # sandbox signs the gateway's webhook with the key they check.
    sandbox = services.get(SANDBOX)
    if sandbox is None:
        problems.add("infra/docker-compose.yml", f"no service {SANDBOX} (serve --service sandbox, the payment provider on a laptop)")
        return
    if (sandbox.get("command") or [])[:3] != ["serve", "--service", SANDBOX]:
        problems.add(f"infra/docker-compose.yml {SANDBOX}", "command must be serve --service sandbox --host 0.0.0.0")
    sandbox_env = compose_environment(sandbox)
    port = sandbox_env.get("PORT", "8080")
    webhook = sandbox_env.get("PSP_WEBHOOK_URL", "")
    if not re.fullmatch(rf"http://gateway:\d+{re.escape(SANDBOX_WEBHOOK_PATH)}", webhook):
        problems.add(f"infra/docker-compose.yml {SANDBOX}", f"PSP_WEBHOOK_URL must be the gateway's {SANDBOX_WEBHOOK_PATH} (http://gateway:8080...)")
    if len(sandbox_env.get("PSP_WEBHOOK_SECRET", "").encode()) < 32:
        problems.add(f"infra/docker-compose.yml {SANDBOX}", "PSP_WEBHOOK_SECRET must be at least 32 bytes")
    if (sandbox.get("healthcheck") or {}).get("test") != HEALTHCHECK:
        problems.add(f"infra/docker-compose.yml {SANDBOX}", f"healthcheck test must be {HEALTHCHECK}")
    for name in ("pagamentos", "gateway"):
        environment = compose_environment(services.get(name) or {})
        where = f"infra/docker-compose.yml {name}"
        if environment.get("PSP_URL") != f"http://{SANDBOX}:{port}":
            problems.add(where, f"PSP_URL must be http://{SANDBOX}:{port} (the sandbox server)")
        for variable in ("PSP_WEBHOOK_SECRET", "PSP_API_KEY"):
            if environment.get(variable) != sandbox_env.get(variable):
                problems.add(where, f"{variable} must equal the sandbox's")


# --- observability -------------------------------------------------------------------------

OBSERVABILITY = ROOT / "infra" / "observability"
METRICS_FILE = OBSERVABILITY / "metrics.txt"
DASHBOARD = OBSERVABILITY / "grafana-dashboard.json"
COLLECTOR_CONFIG = OBSERVABILITY / "adot-config.yaml"
OBSERVABILITY_TF = TERRAFORM / "observability.tf"
RUNBOOK = "docs/observability.md"
METRIC_TYPES = {"counter", "gauge", "histogram"}
HISTOGRAM_SERIES = ("_bucket", "_sum", "_count")
SEVERITIES = {"critical", "warning"}
DASHBOARD_ROWS = {"HTTP", "Event store", "Barramento (RabbitMQ)", "Modelos de leitura e relay", "Temporizadores", "Negócio", "Processo"}
# What Grafana puts in for its own variables when a panel runs, for parsing the expressions.
GRAFANA_BUILTINS = {"__rate_interval": "5m", "__interval": "1m", "__range": "1h", "__interval_ms": "60000", "__range_s": "3600"}
# Words of PromQL that are not metric names (functions and aggregations are followed by "(").
PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset", "inf", "nan"}


def load_metrics(problems: Problems) -> dict[str, str]:
    """metrics.txt: name -> type."""
    where = str(METRICS_FILE.relative_to(ROOT))
    metrics: dict[str, str] = {}
    for number, line in enumerate(METRICS_FILE.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or not re.fullmatch(r"[a-z_][a-z0-9_]*", parts[0]) or parts[1] not in METRIC_TYPES:
            problems.add(f"{where}:{number}", "expected \"<name> <counter|gauge|histogram> <help>\"")
            continue
        name, kind = parts[0], parts[1]
        if name in metrics:
            problems.add(f"{where}:{number}", f"{name} is listed twice")
        if (kind == "counter") != name.endswith("_total"):
            problems.add(f"{where}:{number}", f"{name}: a counter's name, and only a counter's, ends in _total")
        if kind == "histogram" and name.endswith(HISTOGRAM_SERIES):
            problems.add(f"{where}:{number}", f"{name}: a histogram's name is its family's, without {'/'.join(HISTOGRAM_SERIES)}")
        metrics[name] = kind
    if not metrics:
        problems.add(where, "no metrics")
    return metrics


def series_names(metrics: dict[str, str]) -> dict[str, str]:
    """The series a scrape holds -> the metric (family) in metrics.txt."""
    names = {}
    for name, kind in metrics.items():
        if kind == "histogram":
            names.update({name + suffix: name for suffix in HISTOGRAM_SERIES})
        else:
            names[name] = name
    return names


def promql_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects (strings, label matchers, ranges, label lists,
    functions, keywords and numbers left out)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        word = match.group(0)
        before = text[match.start() - 1] if match.start() else " "
        if before.isdigit() or before == ".":
            continue  # 5m, 1e3
        if text[match.end():].lstrip().startswith("(") or word.lower() in PROMQL_WORDS:
            continue
        names.add(word)
    return names


def markdown_anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    anchors = set()
    if not path.exists():
        return anchors
    for line in path.read_text().splitlines():
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            slug = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower().replace("`", ""))
            anchors.add(slug.replace(" ", "-"))
    return anchors


def promtool_parse(problems: Problems, promtool: str, expressions: list[tuple[str, str]]) -> None:
    """Parses every expression with promtool (as recording rules: promtool has no bare
    expression check); a failure names the expression's place."""
    import yaml

    if not expressions:
        return
    rules = [{"record": f"check:expression_{index}", "expr": expr} for index, (_, expr) in enumerate(expressions)]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "expressions.yml"
        path.write_text(yaml.safe_dump({"groups": [{"name": "expressions", "rules": rules}]}, allow_unicode=True))
        result = subprocess.run([promtool, "check", "rules", str(path)], capture_output=True, text=True)
        if result.returncode == 0:
            return
        output = result.stdout + result.stderr
        failing = {int(index) for index in re.findall(r"check:expression_(\d+)", output)}
        if not failing:
            problems.add("promtool", output.strip().replace(str(path), "expressions"))
        for index in sorted(failing):
            where, expr = expressions[index]
            detail = next((line.strip() for line in output.splitlines() if f"check:expression_{index}\"" in line or f"check:expression_{index}:" in line), "")
            problems.add(where, f"promtool cannot parse {expr!r}: {detail.replace(str(path) + ':', '')}")


def check_rule_files(problems: Problems, series: dict[str, str], anchors: set[str]) -> tuple[set[str], set[str]]:
    """alerts.yml and the recording rules: names, labels, annotations, runbooks. Returns the
    recorded names and the metrics the rules use."""
    import yaml

    files = [path for path in sorted(OBSERVABILITY.glob("*.yml")) if not path.stem.endswith("_test")]
    documents = {path: yaml.safe_load(path.read_text()) or {} for path in files}
    recorded = {rule["record"] for document in documents.values() for group in document.get("groups") or []
                for rule in group.get("rules") or [] if "record" in rule}
    used: set[str] = set()
    alerts = 0
    for path, document in documents.items():
        where = str(path.relative_to(ROOT))
        for group in document.get("groups") or []:
            for rule in group.get("rules") or []:
                name = rule.get("record") or rule.get("alert")
                here = f"{where} {name}"
                for metric in sorted(promql_names(str(rule.get("expr", ""))) - set(series) - recorded):
                    problems.add(here, f"{metric} is neither in metrics.txt nor a recorded name")
                used |= {series[m] for m in promql_names(str(rule.get("expr", ""))) if m in series}
                if "alert" not in rule:
                    continue
                alerts += 1
                if not str(name).startswith("Coworkflow"):
                    problems.add(here, "alert names start with Coworkflow")
                if (rule.get("labels") or {}).get("severity") not in SEVERITIES:
                    problems.add(here, f"label severity must be one of {sorted(SEVERITIES)}")
                annotations = rule.get("annotations") or {}
                for key in ("summary", "description", "runbook_url"):
                    if not str(annotations.get(key, "")).strip():
                        problems.add(here, f"annotation {key} is missing")
                runbook = str(annotations.get("runbook_url", ""))
                anchor = runbook.partition("#")[2]
                if not runbook.startswith(RUNBOOK + "#") or anchor not in anchors:
                    problems.add(here, f"runbook_url must be {RUNBOOK}#<a heading of it>, is {runbook!r}")
    if not alerts:
        problems.add("infra/observability/alerts.yml", "no alert rules")
    return recorded, used


def check_dashboard(problems: Problems, promtool: str, series: dict[str, str], recorded: set[str]) -> set[str]:
    """grafana-dashboard.json: its variables, rows and panels; every query's names and syntax.
    Returns the metrics it shows."""
    where = str(DASHBOARD.relative_to(ROOT))
    try:
        dashboard = json.loads(DASHBOARD.read_text())
    except json.JSONDecodeError as error:
        problems.add(where, f"not JSON: {error}")
        return set()
    if not isinstance(dashboard.get("schemaVersion"), int) or dashboard["schemaVersion"] < 36:
        problems.add(where, "schemaVersion must be a number, 36 or later (Grafana 9+)")
    variables = {item.get("name"): item for item in (dashboard.get("templating") or {}).get("list") or []}
    if (variables.get("datasource") or {}).get("type") != "datasource" or variables["datasource"].get("query") != "prometheus":
        problems.add(where, "a variable datasource of type datasource, query prometheus")
    if (variables.get("job") or {}).get("type") != "query":
        problems.add(where, "a query variable job (the deployable)")
    used: set[str] = set()
    expressions: list[tuple[str, str]] = []

    def substituted(expr: str) -> str:
        def value(match: re.Match) -> str:
            name = match.group(1) or match.group(2)
            if name in GRAFANA_BUILTINS:
                return GRAFANA_BUILTINS[name]
            if name not in variables:
                problems.add(where, f"{match.group(0)} is not a variable of the dashboard")
            return ".*"
        return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", value, expr)

    for name, variable in variables.items():
        query = variable.get("query")
        query = query.get("query", "") if isinstance(query, dict) else str(query or "")
        found = re.fullmatch(r"label_values\((\w+),\s*(\w+)\)", query.strip())
        if variable.get("type") == "query":
            if not found:
                problems.add(where, f"variable {name}: expected label_values(<metric>, <label>)")
            elif found.group(1) not in series:
                problems.add(where, f"variable {name}: {found.group(1)} is not in metrics.txt")
            else:
                used.add(series[found.group(1)])
    ids, rows = set(), set()
    for panel in dashboard.get("panels") or []:
        title = panel.get("title", "")
        here = f"{where} panel {panel.get('id')} ({title})"
        if panel.get("id") in ids:
            problems.add(here, "panel id used twice")
        ids.add(panel.get("id"))
        if not {"h", "w", "x", "y"} <= set(panel.get("gridPos") or {}):
            problems.add(here, "gridPos h, w, x, y")
        if panel.get("type") == "row":
            rows.add(title)
            continue
        targets = panel.get("targets") or []
        if not targets:
            problems.add(here, "no target")
        if (panel.get("datasource") or {}).get("uid") not in ("${datasource}", "$datasource"):
            problems.add(here, "datasource uid must be ${datasource}")
        for target in targets:
            expr = str(target.get("expr", "")).strip()
            if not expr:
                problems.add(here, f"target {target.get('refId')} has no expr")
                continue
            if (target.get("datasource") or {}).get("uid") not in (None, "${datasource}", "$datasource"):
                problems.add(here, f"target {target.get('refId')}: datasource uid must be ${{datasource}}")
            for metric in sorted(promql_names(expr) - set(series) - recorded):
                problems.add(here, f"{metric} is neither in metrics.txt nor a recorded name")
            used |= {series[m] for m in promql_names(expr) if m in series}
            expressions.append((f"{here} target {target.get('refId')}", substituted(expr)))
    for row in sorted(DASHBOARD_ROWS - rows):
        problems.add(where, f"no row {row!r}")
    promtool_parse(problems, promtool, expressions)
    return used


def check_collector_config(problems: Problems, promtool: str, metrics: dict[str, str]) -> set[str]:
    """adot-config.yaml: scrapes the application's port, sends only what it declares to
    CloudWatch, listens on loopback; its Prometheus part passes promtool check config. Returns
    the metrics it sends to CloudWatch."""
    import yaml

    where = str(COLLECTOR_CONFIG.relative_to(ROOT))
    config = yaml.safe_load(COLLECTOR_CONFIG.read_text()) or {}
    receivers, processors = config.get("receivers") or {}, config.get("processors") or {}
    exporters, extensions = config.get("exporters") or {}, config.get("extensions") or {}
    service = config.get("service") or {}
    pipelines = service.get("pipelines") or {}
    for kind, defined in (("receivers", receivers), ("processors", processors), ("exporters", exporters)):
        for pipeline, body in pipelines.items():
            for component in (body or {}).get(kind) or []:
                if component not in defined:
                    problems.add(where, f"pipeline {pipeline}: {kind[:-1]} {component} is not defined")
    for component in service.get("extensions") or []:
        if component not in extensions:
            problems.add(where, f"extension {component} is not defined")
    if (pipelines.get("metrics") or {}).get("receivers") != ["prometheus"] or "awsemf" not in (pipelines.get("metrics") or {}).get("exporters", []):
        problems.add(where, "pipeline metrics: prometheus -> awsemf")
    if "awsxray" not in (pipelines.get("traces") or {}).get("exporters", []) or "otlp" not in (pipelines.get("traces") or {}).get("receivers", []):
        problems.add(where, "pipeline traces: otlp -> awsxray")

    # The environment the configuration reads is the collector container's.
    tasks = load_tasks()
    text = COLLECTOR_CONFIG.read_text()
    read = set(re.findall(r"\$\{env:([A-Z_][A-Z0-9_]*)\}", text))
    ports = set()
    for name, task in tasks.items():
        collectors = [c for c in task.get("containerDefinitions") or [] if c.get("name") == COLLECTOR]
        if not collectors:
            continue
        ports.add(((container(task).get("portMappings") or [{}])[0]).get("containerPort"))
        environment = set(names_in(collectors[0].get("environment"))) | set(names_in(collectors[0].get("secrets")))
        for variable in sorted(read - environment):
            problems.add(f"ecs-tasks/{name}.json", f"{COLLECTOR}: sets no {variable}, which {where} reads")

    scrape = (((receivers.get("prometheus") or {}).get("config") or {}).get("scrape_configs")) or []
    if len(scrape) != 1:
        problems.add(where, "receivers.prometheus: exactly one scrape config (the application beside it)")
    else:
        job = scrape[0]
        targets = [target for static in job.get("static_configs") or [] for target in static.get("targets") or []]
        labels = {key: value for static in job.get("static_configs") or [] for key, value in (static.get("labels") or {}).items()}
        if targets != [f"127.0.0.1:{port}" for port in sorted(ports)] or len(ports) != 1:
            problems.add(where, f"receivers.prometheus: the target must be 127.0.0.1:<the application's port>, the same in every task ({sorted(ports)})")
        if job.get("metrics_path") != "/metrics" or job.get("scrape_interval") != "30s":
            problems.add(where, "receivers.prometheus: metrics_path /metrics every 30s")
        if labels.get("Service") != "${env:COWORKFLOW_SERVICE}":
            problems.add(where, "receivers.prometheus: label Service from ${env:COWORKFLOW_SERVICE} (the CloudWatch dimension)")
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "prometheus.yml"
            path.write_text(re.sub(r"\$\{env:\w+\}", "sample", yaml.safe_dump(receivers["prometheus"]["config"])))
            result = subprocess.run([promtool, "check", "config", str(path)], capture_output=True, text=True)
            if result.returncode != 0:
                problems.add(where, f"receivers.prometheus.config: promtool check config: {(result.stdout + result.stderr).strip()}")
    protocols = ((receivers.get("otlp") or {}).get("protocols")) or {}
    for protocol, body in protocols.items():
        if not str((body or {}).get("endpoint", "")).startswith("127.0.0.1:"):
            problems.add(where, f"receivers.otlp.protocols.{protocol}: endpoint on 127.0.0.1 (the task's own containers only)")
    # The application sends OTLP/HTTP (swift-otel) to ${otlp_endpoint}: this receiver.
    http_endpoint = str((protocols.get("http") or {}).get("endpoint", ""))
    found = OTLP_ENDPOINT_TF.search((TERRAFORM / "tasks.tf").read_text())
    if not http_endpoint:
        problems.add(where, "receivers.otlp.protocols.http: the application sends its traces over OTLP/HTTP")
    elif not found or found.group(1) != f"http://{http_endpoint}":
        problems.add("infra/terraform/tasks.tf", f"otlp_endpoint must be var.observability_enabled ? \"http://{http_endpoint}\" : \"\" "
                                                 f"(the collector's OTLP/HTTP receiver; empty, tracing off, without it)")
    for name, body in extensions.items():
        endpoint = str((body or {}).get("endpoint", "127.0.0.1:"))
        if not endpoint.startswith("127.0.0.1:"):
            problems.add(where, f"extensions.{name}: endpoint on 127.0.0.1")

    # What reaches CloudWatch: the filter keeps exactly what the exporter declares.
    emf = exporters.get("awsemf") or {}
    namespace = re.search(r'metrics_namespace\s*=\s*"([^"]+)"', OBSERVABILITY_TF.read_text())
    if emf.get("namespace") != "CoworkFlow" or not namespace or namespace.group(1) != emf.get("namespace"):
        problems.add(where, "exporters.awsemf.namespace must be CoworkFlow, the metrics_namespace of infra/terraform/observability.tf")
    declared: set[str] = set()
    for declaration in emf.get("metric_declarations") or []:
        for dimensions in declaration.get("dimensions") or []:
            if "Service" not in dimensions:
                problems.add(where, f"exporters.awsemf: dimension set {dimensions} lacks Service")
        for selector in declaration.get("metric_name_selectors") or []:
            matched = {name for name in series_names(metrics) if re.search(selector, name)}
            if not matched:
                problems.add(where, f"exporters.awsemf: selector {selector} matches no name in metrics.txt")
            declared |= matched
    kept = set(series_names(metrics))
    for processor in (pipelines.get("metrics") or {}).get("processors") or []:
        for condition in (((processors.get(processor) or {}).get("metrics") or {}).get("metric")) or []:
            found = re.fullmatch(r'not IsMatch\(name, "(.*)"\)', condition.strip())
            if not found:
                problems.add(where, f"processors.{processor}: expected 'not IsMatch(name, \"<regex>\")', found {condition!r}")
                continue
            kept = {name for name in kept if re.search(found.group(1), name)}
    if kept != declared:
        problems.add(where, f"the metrics pipeline keeps {sorted(kept)} but awsemf declares {sorted(declared)}: name the same metrics")
    return declared


def check_alarms(problems: Problems, exported: set[str], metrics: dict[str, str]) -> None:
    """The CloudWatch alarms on the application's metrics read what the collector sends."""
    where = str(OBSERVABILITY_TF.relative_to(ROOT))
    text = OBSERVABILITY_TF.read_text()
    names = set(re.findall(r'metric_name\s*=\s*"((?:coworkflow|process)_\w+)"', text))
    if not names:
        problems.add(where, "no alarm on the application's metrics")
    for name in sorted(names - set(series_names(metrics))):
        problems.add(where, f"an alarm reads {name}, which is not in metrics.txt")
    for name in sorted((names & set(series_names(metrics))) - exported):
        problems.add(where, f"an alarm reads {name}, which the collector does not send (infra/observability/adot-config.yaml)")


def check_observability(promtool: str) -> int:
    problems = Problems()
    metrics = load_metrics(problems)
    series = series_names(metrics)
    anchors = markdown_anchors(ROOT / RUNBOOK)
    recorded, in_rules = check_rule_files(problems, series, anchors)
    shown = check_dashboard(problems, promtool, series, recorded)
    for name in sorted(set(metrics) - shown):
        problems.add(str(DASHBOARD.relative_to(ROOT)), f"{name} (metrics.txt) is on no panel")
    exported = check_collector_config(problems, promtool, metrics)
    check_alarms(problems, exported, metrics)
    return problems.finish(
        f"observability: {len(metrics)} metrics (metrics.txt); rules, dashboard ({len(shown)} metrics on it), collector "
        f"({len(exported)} sent to CloudWatch) and alarms use only those; every dashboard query parsed by promtool")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("deployables")
    listing.add_argument("--json", action="store_true")
    rendering = commands.add_parser("render")
    rendering.add_argument("--context", required=True, help="the deploy context JSON (SSM parameter value)")
    rendering.add_argument("--task", required=True)
    rendering.add_argument("--tag", required=True, help="image tag (the commit sha)")
    commands.add_parser("tasks")
    consistency = commands.add_parser("consistency")
    consistency.add_argument("--compose-json", help="`docker compose config --format json` output, instead of reading the YAML")
    commands.add_parser("read-variables")
    observability = commands.add_parser("observability")
    observability.add_argument("--promtool", required=True, help="promtool (Prometheus 2.x), to parse the expressions")
    arguments = parser.parse_args()

    if arguments.command == "deployables":
        names = deployables()
        print(json.dumps(names) if arguments.json else "\n".join(names))
        return 0
    if arguments.command == "render":
        context = json.loads(Path(arguments.context).read_text())
        print(json.dumps(render(context, arguments.task, arguments.tag), indent=2))
        return 0
    if arguments.command == "tasks":
        return check_tasks()
    if arguments.command == "consistency":
        return check_consistency(arguments.compose_json)
    if arguments.command == "observability":
        return check_observability(arguments.promtool)
    print("\n".join(sorted(read_variables())))
    return 0


if __name__ == "__main__":
    sys.exit(main())

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

`deployables` and `render` need only the standard library (they run on GitHub's runners);
`tasks` needs botocore, `consistency` PyYAML and python-hcl2 (scripts/check-deploy installs
them). Exit status 1 and one line per problem on any failure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
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
    return render_text(path.read_text(), context_values(context, task, tag), str(path.relative_to(ROOT)))


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
        rendered = render_text(text, context_values(context, name, "0123456789abcdef"), where)
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
        if len(definitions) != 1:
            problems.add(where, "exactly one container")
            continue
        c = definitions[0]
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

    # The gateway finds every built service through Cloud Map, on that service's port.
    gateway = {item["name"]: item.get("value") for item in container(tasks.get("gateway", {})).get("environment") or []}
    for service in built:
        variable = f"SERVICE_{service.upper()}_URL"
        task = tasks.get(service, {})
        port = ((container(task).get("portMappings") or [{}])[0]).get("containerPort")
        if gateway.get(variable) != f"http://{service}.${{service_namespace}}:{port}":
            problems.add("ecs-tasks/gateway.json", f"{variable} must be http://{service}.${{service_namespace}}:{port}")
        if labels(task).get("coworkflow.ingress") != "gateway":
            problems.add(f"ecs-tasks/{service}.json", "the gateway calls it: label coworkflow.ingress must be gateway")

    check_runtime_needs(problems, tasks, services, built)

    return problems.finish(
        f"consistency: {len(deployable_names)} deployables ({', '.join(deployable_names)}) in the Dockerfile, ecs-tasks/, "
        f"Terraform, compose and the deploy matrix; every variable set is read by the program; "
        f"AMQP_URL where a queue is consumed, the payment provider's settings alike on pagamentos, gateway and sandbox")


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
    print("\n".join(sorted(read_variables())))
    return 0


if __name__ == "__main__":
    sys.exit(main())

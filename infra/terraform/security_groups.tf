# Security groups allow only what DESIGN needs: clients -> load balancer (80/443) -> gateway
# and frontend (8080); gateway -> services (8080, Cloud Map names); deployables and one-off
# tasks -> PostgreSQL (5432); projections and the event consumers -> RabbitMQ (5671);
# notificacoes -> SMTP; every task -> HTTPS (ECR, CloudWatch Logs, Secrets Manager).
# projections accepts nothing: its only inbound traffic is the container health check, which
# runs inside the task.
locals {
  # One group per deployable; the one-off tasks (migrate, admin, db-bootstrap) share one.
  task_groups = setunion(local.deployables, ["one-off"])
  group_of    = merge({ for name in local.task_names : name => contains(local.one_off_tasks, name) ? "one-off" : name }, { "db-bootstrap" = "one-off" })

  database_clients = setunion([for name in local.uses_database : local.group_of[name]], ["one-off"])
  broker_clients   = toset([for name in local.uses_broker : local.group_of[name]])
  smtp_clients     = toset([for name in local.uses_smtp : local.group_of[name]])
  alb_ingress = {
    for pair in setproduct(var.allowed_ingress_cidrs, var.certificate_arn == "" ? [80] : [80, 443]) :
    "${pair[0]}:${pair[1]}" => { cidr = pair[0], port = pair[1] }
  }
}

resource "aws_security_group" "alb" {
  name        = "${var.name_prefix}-alb"
  description = "Load balancer: HTTP/HTTPS from the internet, to the gateway and the frontend"
  vpc_id      = aws_vpc.main.id
  tags        = { Name = "${var.name_prefix}-alb" }
}

resource "aws_vpc_security_group_ingress_rule" "alb" {
  # The public entry point: port 80 answers with a redirect to HTTPS once certificate_arn is set.
  for_each          = local.alb_ingress
  security_group_id = aws_security_group.alb.id
  description       = "Clients on port ${each.value.port}"
  cidr_ipv4         = each.value.cidr
  ip_protocol       = "tcp"
  from_port         = each.value.port
  to_port           = each.value.port
}

resource "aws_vpc_security_group_egress_rule" "alb_to_targets" {
  for_each                     = local.behind_alb
  security_group_id            = aws_security_group.alb.id
  description                  = "Requests and health checks to ${each.key}"
  referenced_security_group_id = aws_security_group.task[each.key].id
  ip_protocol                  = "tcp"
  from_port                    = local.task_port[each.key]
  to_port                      = local.task_port[each.key]
}

resource "aws_security_group" "task" {
  for_each    = local.task_groups
  name        = "${var.name_prefix}-${each.key}"
  description = each.key == "one-off" ? "One-off tasks (db-bootstrap, migrate, admin)" : "Tasks of the ${each.key} service"
  vpc_id      = aws_vpc.main.id
  tags        = { Name = "${var.name_prefix}-${each.key}" }
}

resource "aws_vpc_security_group_ingress_rule" "from_alb" {
  for_each                     = local.behind_alb
  security_group_id            = aws_security_group.task[each.key].id
  description                  = "From the load balancer"
  referenced_security_group_id = aws_security_group.alb.id
  ip_protocol                  = "tcp"
  from_port                    = local.task_port[each.key]
  to_port                      = local.task_port[each.key]
}

resource "aws_vpc_security_group_ingress_rule" "from_gateway" {
  for_each                     = local.behind_gw
  security_group_id            = aws_security_group.task[each.key].id
  description                  = "Commands forwarded by the gateway"
  referenced_security_group_id = aws_security_group.task["gateway"].id
  ip_protocol                  = "tcp"
  from_port                    = local.task_port[each.key]
  to_port                      = local.task_port[each.key]
}

resource "aws_vpc_security_group_egress_rule" "gateway_to_services" {
  for_each                     = local.behind_gw
  security_group_id            = aws_security_group.task["gateway"].id
  description                  = "Forward commands to ${each.key}"
  referenced_security_group_id = aws_security_group.task[each.key].id
  ip_protocol                  = "tcp"
  from_port                    = local.task_port[each.key]
  to_port                      = local.task_port[each.key]
}

resource "aws_vpc_security_group_egress_rule" "https" {
  for_each          = local.task_groups
  security_group_id = aws_security_group.task[each.key].id
  description       = "HTTPS to AWS APIs (ECR, CloudWatch Logs, Secrets Manager) through NAT / the S3 endpoint"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

resource "aws_vpc_security_group_egress_rule" "smtp" {
  for_each          = local.smtp_clients
  security_group_id = aws_security_group.task[each.key].id
  description       = "SMTP submission to the mail provider"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = var.smtp_port
  to_port           = var.smtp_port
}

resource "aws_security_group" "database" {
  name        = "${var.name_prefix}-database"
  description = "PostgreSQL: from the deployables and the one-off tasks only"
  vpc_id      = aws_vpc.main.id
  tags        = { Name = "${var.name_prefix}-database" }
}

resource "aws_vpc_security_group_ingress_rule" "database" {
  for_each                     = local.database_clients
  security_group_id            = aws_security_group.database.id
  description                  = "PostgreSQL from ${each.key}"
  referenced_security_group_id = aws_security_group.task[each.key].id
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

resource "aws_vpc_security_group_egress_rule" "to_database" {
  for_each                     = local.database_clients
  security_group_id            = aws_security_group.task[each.key].id
  description                  = "PostgreSQL"
  referenced_security_group_id = aws_security_group.database.id
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
}

resource "aws_security_group" "broker" {
  name        = "${var.name_prefix}-broker"
  description = "RabbitMQ (AMQP over TLS): from the relay and the event consumers only"
  vpc_id      = aws_vpc.main.id
  tags        = { Name = "${var.name_prefix}-broker" }
}

resource "aws_vpc_security_group_ingress_rule" "broker" {
  for_each                     = local.broker_clients
  security_group_id            = aws_security_group.broker.id
  description                  = "AMQPS from ${each.key}"
  referenced_security_group_id = aws_security_group.task[each.key].id
  ip_protocol                  = "tcp"
  from_port                    = 5671
  to_port                      = 5671
}

resource "aws_vpc_security_group_egress_rule" "to_broker" {
  for_each                     = local.broker_clients
  security_group_id            = aws_security_group.task[each.key].id
  description                  = "AMQPS to RabbitMQ"
  referenced_security_group_id = aws_security_group.broker.id
  ip_protocol                  = "tcp"
  from_port                    = 5671
  to_port                      = 5671
}

# The ECS cluster, the task definitions from ecs-tasks/, one Fargate service per deployable
# in the private subnets, Cloud Map names for the services the gateway calls, and CPU-based
# autoscaling.
resource "aws_ecs_cluster" "main" {
  name = var.name_prefix

  setting {
    name  = "containerInsights"
    value = "enabled"
  }
}

resource "aws_ecs_cluster_capacity_providers" "main" {
  cluster_name       = aws_ecs_cluster.main.name
  capacity_providers = ["FARGATE"]

  default_capacity_provider_strategy {
    capacity_provider = "FARGATE"
    weight            = 1
  }
}

resource "aws_cloudwatch_log_group" "task" {
  for_each          = local.execution_role_tasks
  name              = "/ecs/${var.name_prefix}/${each.key}"
  retention_in_days = var.log_retention_days
  kms_key_id        = aws_kms_key.main.arn
}

# The first revision of every task definition. deploy.yml registers the next ones (same file,
# image tagged with the commit sha); old revisions stay registered as rollback targets.
resource "aws_ecs_task_definition" "this" {
  for_each                 = local.tasks
  family                   = each.value.family
  requires_compatibilities = each.value.requiresCompatibilities
  network_mode             = each.value.networkMode
  cpu                      = each.value.cpu
  memory                   = each.value.memory
  execution_role_arn       = each.value.executionRoleArn
  task_role_arn            = each.value.taskRoleArn
  container_definitions    = jsonencode(each.value.containerDefinitions)
  skip_destroy             = true

  runtime_platform {
    operating_system_family = each.value.runtimePlatform.operatingSystemFamily
    cpu_architecture        = each.value.runtimePlatform.cpuArchitecture
  }

  dynamic "volume" {
    for_each = try(each.value.volumes, [])
    content {
      name = volume.value.name
    }
  }

  depends_on = [terraform_data.task_files_check]
}

resource "aws_service_discovery_private_dns_namespace" "main" {
  name        = var.service_namespace
  description = "Service-to-service names of ${var.name_prefix}"
  vpc         = aws_vpc.main.id
}

resource "aws_service_discovery_service" "this" {
  for_each = local.behind_gw
  name     = each.key

  dns_config {
    namespace_id   = aws_service_discovery_private_dns_namespace.main.id
    routing_policy = "MULTIVALUE"
    dns_records {
      type = "A"
      ttl  = 10
    }
  }

  # ECS reports task health; unhealthy tasks leave DNS.
  health_check_custom_config {
    failure_threshold = 1
  }
}

resource "aws_ecs_service" "this" {
  for_each        = local.deployables
  name            = each.key
  cluster         = aws_ecs_cluster.main.id
  task_definition = aws_ecs_task_definition.this[each.key].arn
  # Terraform owns the count (desired_count, desired_counts); target tracking moves it between
  # that and autoscaling_max_count. An apply during a scale-out resets it to the minimum and
  # target tracking scales out again within minutes.
  desired_count           = local.task_count[each.key]
  launch_type             = "FARGATE"
  platform_version        = "LATEST"
  propagate_tags          = "SERVICE"
  enable_ecs_managed_tags = true

  deployment_minimum_healthy_percent = 100
  deployment_maximum_percent         = 200
  health_check_grace_period_seconds  = contains(local.behind_alb, each.key) ? 60 : null

  # A deployment whose tasks do not become healthy is stopped and rolled back.
  deployment_circuit_breaker {
    enable   = true
    rollback = true
  }

  network_configuration {
    subnets          = aws_subnet.private[*].id
    security_groups  = [aws_security_group.task[each.key].id]
    assign_public_ip = false
  }

  dynamic "load_balancer" {
    for_each = contains(local.behind_alb, each.key) ? [1] : []
    content {
      target_group_arn = aws_lb_target_group.this[each.key].arn
      container_name   = each.key
      container_port   = local.task_port[each.key]
    }
  }

  dynamic "service_registries" {
    for_each = contains(local.behind_gw, each.key) ? [1] : []
    content {
      registry_arn = aws_service_discovery_service.this[each.key].arn
    }
  }

  lifecycle {
    # deploy.yml registers a new revision per commit and points the service at it.
    ignore_changes = [task_definition]
  }

  depends_on = [aws_lb_listener.http, aws_iam_role_policy.execution]
}

resource "aws_appautoscaling_target" "this" {
  for_each           = local.autoscaled
  service_namespace  = "ecs"
  resource_id        = "service/${aws_ecs_cluster.main.name}/${aws_ecs_service.this[each.key].name}"
  scalable_dimension = "ecs:service:DesiredCount"
  min_capacity       = local.task_count[each.key]
  max_capacity       = max(local.task_count[each.key], var.autoscaling_max_count)
}

resource "aws_appautoscaling_policy" "cpu" {
  for_each           = local.autoscaled
  name               = "${var.name_prefix}-${each.key}-cpu"
  policy_type        = "TargetTrackingScaling"
  service_namespace  = aws_appautoscaling_target.this[each.key].service_namespace
  resource_id        = aws_appautoscaling_target.this[each.key].resource_id
  scalable_dimension = aws_appautoscaling_target.this[each.key].scalable_dimension

  target_tracking_scaling_policy_configuration {
    target_value       = var.autoscaling_cpu_target
    scale_in_cooldown  = 300
    scale_out_cooldown = 60
    predefined_metric_specification {
      predefined_metric_type = "ECSServiceAverageCPUUtilization"
    }
  }
}

output "alb_dns_name" {
  description = "Public name of the load balancer (point your domain's CNAME/alias here)."
  value       = aws_lb.main.dns_name
}

output "ecr_repository_urls" {
  description = "ECR repository per deployable."
  value       = { for name, repository in aws_ecr_repository.this : name => repository.repository_url }
}

output "cluster_name" {
  description = "ECS cluster."
  value       = aws_ecs_cluster.main.name
}

output "deploy_role_arn" {
  description = "Role for GitHub Actions (repository variable AWS_DEPLOY_ROLE_ARN)."
  value       = local.github_deploy ? aws_iam_role.github_deploy[0].arn : null
}

output "deploy_context_parameter" {
  description = "SSM parameter deploy.yml reads."
  value       = aws_ssm_parameter.deploy_context.name
}

output "database_endpoint" {
  description = "RDS endpoint (private)."
  value       = aws_db_instance.main.endpoint
}

output "database_master_secret_arn" {
  description = "Secrets Manager secret of the RDS master user (managed by RDS)."
  value       = aws_db_instance.main.master_user_secret[0].secret_arn
}

output "one_off_network" {
  description = "Subnets and security group for aws ecs run-task of the one-off tasks (docs/deploy.md)."
  value = {
    subnets         = aws_subnet.private[*].id
    security_groups = [aws_security_group.task["one-off"].id]
  }
}

output "secrets_to_fill" {
  description = "Secrets whose value the operator puts (docs/deploy.md); smtp and psp_api_key start empty, psp_webhook_secret generated."
  value = {
    smtp               = aws_secretsmanager_secret.smtp.name
    admin_bootstrap    = aws_secretsmanager_secret.admin_bootstrap.name
    psp_api_key        = aws_secretsmanager_secret.psp_api_key.name
    psp_webhook_secret = aws_secretsmanager_secret.psp_webhook.name
  }
}

output "alarm_topic_arn" {
  description = "SNS topic of the CloudWatch alarms (docs/observability.md): subscribe people or a chat integration to it."
  value       = aws_sns_topic.alarms.arn
}

output "observability" {
  description = "Where the collector's metrics go (namespace CoworkFlow, dimension Service) and the parameter holding its configuration; null while observability_enabled is false."
  value = var.observability_enabled ? {
    metrics_namespace          = local.metrics_namespace
    metrics_log_group          = aws_cloudwatch_log_group.metrics[0].name
    collector_config_parameter = aws_ssm_parameter.collector_config[0].name
  } : null
}

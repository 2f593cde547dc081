# Amazon MQ for RabbitMQ: private, encrypted at rest (always, with an AWS owned key: RabbitMQ
# brokers take no customer key), general logs to CloudWatch (RabbitMQ has no audit log).
# Clients connect with AMQP over TLS (amqps, port 5671), the only protocol Amazon MQ offers.
resource "aws_mq_broker" "main" {
  #checkov:skip=CKV_AWS_209:Amazon MQ encrypts RabbitMQ brokers at rest with an AWS owned key only; encryption_options does not apply to RabbitMQ.
  broker_name         = var.name_prefix
  engine_type         = "RabbitMQ"
  engine_version      = var.mq_engine_version
  host_instance_type  = var.mq_instance_type
  deployment_mode     = var.mq_deployment_mode
  publicly_accessible = false
  subnet_ids          = var.mq_deployment_mode == "SINGLE_INSTANCE" ? [aws_subnet.private[0].id] : aws_subnet.private[*].id
  security_groups     = [aws_security_group.broker.id]

  auto_minor_version_upgrade = true
  apply_immediately          = false

  logs {
    general = true
  }

  maintenance_window_start_time {
    day_of_week = "SUNDAY"
    time_of_day = "07:00"
    time_zone   = "UTC"
  }

  user {
    username = var.mq_username
    password = terraform_data.mq_password.output
  }

  depends_on = [aws_cloudwatch_log_resource_policy.mq]
}

# Amazon MQ writes its logs under /aws/amazonmq/ only with this permission.
resource "aws_cloudwatch_log_resource_policy" "mq" {
  policy_name = "${var.name_prefix}-amazon-mq-logs"
  policy_document = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "mq.amazonaws.com" }
      Action    = ["logs:CreateLogStream", "logs:PutLogEvents"]
      Resource  = "arn:${data.aws_partition.current.partition}:logs:${var.region}:${data.aws_caller_identity.current.account_id}:log-group:/aws/amazonmq/*"
      Condition = { StringEquals = { "aws:SourceAccount" = data.aws_caller_identity.current.account_id } }
    }]
  })
}

# RDS PostgreSQL: private, encrypted, multi-AZ, backed up; the master password is managed by
# RDS in Secrets Manager (rotated by RDS). The master user owns the schema and runs
# `coworkflow migrate`; the deployables connect as the application role (db_app_username),
# which the one-off db-bootstrap task creates.
resource "aws_db_subnet_group" "main" {
  name       = var.name_prefix
  subnet_ids = aws_subnet.private[*].id
}

resource "aws_db_parameter_group" "main" {
  name   = "${var.name_prefix}-postgres${split(".", var.db_engine_version)[0]}"
  family = "postgres${split(".", var.db_engine_version)[0]}"

  # The program connects without TLS today (PostgresSettings uses tls: .disable), and RDS for
  # PostgreSQL 15 refuses plain connections by default. Traffic stays inside the VPC, between
  # security groups. Set 1 once the program speaks TLS to PostgreSQL (docs/deploy.md, caveats).
  parameter {
    name  = "rds.force_ssl"
    value = "0"
  }
  # Schema changes and statements slower than a second are logged (CloudWatch Logs).
  parameter {
    name  = "log_statement"
    value = "ddl"
  }
  parameter {
    name  = "log_min_duration_statement"
    value = "1000"
  }
  parameter {
    name  = "log_lock_waits"
    value = "1"
  }
}

resource "aws_db_instance" "main" {
  #checkov:skip=CKV2_AWS_69:Encryption in transit needs TLS in the program's PostgreSQL client (tls: .disable today); rds.force_ssl=0 until then, traffic confined to the VPC by security groups (docs/deploy.md, caveats).
  identifier     = var.name_prefix
  engine         = "postgres"
  engine_version = var.db_engine_version
  instance_class = var.db_instance_class

  db_name                       = var.db_name
  username                      = var.db_master_username
  manage_master_user_password   = true
  master_user_secret_kms_key_id = aws_kms_key.main.arn
  port                          = 5432

  allocated_storage     = var.db_allocated_storage
  max_allocated_storage = var.db_max_allocated_storage
  storage_type          = "gp3"
  storage_encrypted     = true
  kms_key_id            = aws_kms_key.main.arn

  multi_az               = var.db_multi_az
  db_subnet_group_name   = aws_db_subnet_group.main.name
  vpc_security_group_ids = [aws_security_group.database.id]
  publicly_accessible    = false
  parameter_group_name   = aws_db_parameter_group.main.name

  backup_retention_period   = var.db_backup_retention_days
  backup_window             = "05:00-06:00" # 02:00-03:00 in São Paulo
  maintenance_window        = "sun:06:30-sun:07:30"
  copy_tags_to_snapshot     = true
  deletion_protection       = var.db_deletion_protection
  skip_final_snapshot       = false
  final_snapshot_identifier = "${var.name_prefix}-final"

  auto_minor_version_upgrade          = true
  iam_database_authentication_enabled = true
  enabled_cloudwatch_logs_exports     = ["postgresql", "upgrade"]
  performance_insights_enabled        = true
  performance_insights_kms_key_id     = aws_kms_key.main.arn
  monitoring_interval                 = 60
  monitoring_role_arn                 = aws_iam_role.rds_monitoring.arn

  depends_on = [aws_cloudwatch_log_group.rds]
}

# RDS would create these itself, without retention or the stack's key.
resource "aws_cloudwatch_log_group" "rds" {
  for_each          = toset(["postgresql", "upgrade"])
  name              = "/aws/rds/instance/${var.name_prefix}/${each.key}"
  retention_in_days = var.log_retention_days
  kms_key_id        = aws_kms_key.main.arn
}

resource "aws_iam_role" "rds_monitoring" {
  name = "${var.name_prefix}-rds-monitoring"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "monitoring.rds.amazonaws.com" }
      Action    = "sts:AssumeRole"
    }]
  })
}

resource "aws_iam_role_policy_attachment" "rds_monitoring" {
  role       = aws_iam_role.rds_monitoring.name
  policy_arn = "arn:${data.aws_partition.current.partition}:iam::aws:policy/service-role/AmazonRDSEnhancedMonitoringRole"
}

# One-off task that creates the application role (infra/docker/db-bootstrap.sh, the same script
# compose runs). deploy.yml runs it before every migration; it is idempotent. Not a file in
# ecs-tasks/: it runs psql, not coworkflow.
resource "aws_ecs_task_definition" "db_bootstrap" {
  family                   = "${var.name_prefix}-db-bootstrap"
  requires_compatibilities = ["FARGATE"]
  network_mode             = "awsvpc"
  cpu                      = "256"
  memory                   = "512"
  execution_role_arn       = aws_iam_role.execution["db-bootstrap"].arn
  task_role_arn            = aws_iam_role.task.arn
  skip_destroy             = true

  runtime_platform {
    operating_system_family = "LINUX"
    cpu_architecture        = "X86_64"
  }

  volume {
    name = "tmp"
  }

  container_definitions = jsonencode([{
    name                   = "db-bootstrap"
    image                  = var.db_bootstrap_image
    essential              = true
    user                   = "postgres"
    readonlyRootFilesystem = true
    command                = ["sh", "-c", file("${path.module}/../docker/db-bootstrap.sh")]
    mountPoints            = [{ sourceVolume = "tmp", containerPath = "/tmp", readOnly = false }]
    environment = [
      { name = "PGHOST", value = aws_db_instance.main.address },
      { name = "PGPORT", value = tostring(aws_db_instance.main.port) },
      { name = "PGDATABASE", value = var.db_name },
      { name = "PGSSLMODE", value = "require" },
    ]
    secrets = [
      { name = "PGUSER", valueFrom = "${aws_db_instance.main.master_user_secret[0].secret_arn}:username::" },
      { name = "PGPASSWORD", valueFrom = "${aws_db_instance.main.master_user_secret[0].secret_arn}:password::" },
      { name = "APP_DB_USER", valueFrom = "${aws_secretsmanager_secret.db_app.arn}:username::" },
      { name = "APP_DB_PASSWORD", valueFrom = "${aws_secretsmanager_secret.db_app.arn}:password::" },
    ]
    logConfiguration = {
      logDriver = "awslogs"
      options = {
        awslogs-group         = aws_cloudwatch_log_group.task["db-bootstrap"].name
        awslogs-region        = var.region
        awslogs-stream-prefix = "db-bootstrap"
      }
    }
  }])
}

# Secrets the tasks read through their execution role (ECS "secrets"/valueFrom), never as plain
# environment values. Generated values are written with write-only arguments: they are not in
# the Terraform state or plan. The RDS master password is managed by RDS itself (database.tf).

# --- application database role: {"username", "password"} -------------------------------------
resource "aws_secretsmanager_secret" "db_app" {
  #checkov:skip=CKV2_AWS_57:Rotation is by version bump (db_app_password_version) followed by a deploy, whose db-bootstrap task applies the new password to the role; a rotation Lambda would change it under running tasks.
  name                    = "${var.name_prefix}/db-app"
  description             = "PostgreSQL role of the deployables (DB_USER, DB_PASSWORD)"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

ephemeral "aws_secretsmanager_random_password" "db_app" {
  password_length     = 40
  exclude_punctuation = true
}

resource "aws_secretsmanager_secret_version" "db_app" {
  secret_id = aws_secretsmanager_secret.db_app.id
  secret_string_wo = jsonencode({
    username = var.db_app_username
    password = ephemeral.aws_secretsmanager_random_password.db_app.random_password
  })
  secret_string_wo_version = var.db_app_password_version
}

# --- JWT signing secret (HS256, the same on every deployable) ---------------------------------
resource "aws_secretsmanager_secret" "jwt" {
  #checkov:skip=CKV2_AWS_57:A new signing secret must reach every deployable at once (all sessions end); rotate by bumping jwt_secret_version and redeploying, not with a rotation Lambda.
  name                    = "${var.name_prefix}/jwt-secret"
  description             = "JWT_SECRET: HS256 signing secret of the gateway and services"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

ephemeral "aws_secretsmanager_random_password" "jwt" {
  password_length     = 64
  exclude_punctuation = true
}

resource "aws_secretsmanager_secret_version" "jwt" {
  secret_id                = aws_secretsmanager_secret.jwt.id
  secret_string_wo         = ephemeral.aws_secretsmanager_random_password.jwt.random_password
  secret_string_wo_version = var.jwt_secret_version
}

# --- AMQP_URL: amqps://user:password@broker:5671 ---------------------------------------------
# Amazon MQ needs the broker user's password as a plain argument, so this one is in the state
# (keep the state bucket encrypted and private). Generated once: terraform_data keeps the
# first value; replace it (terraform apply -replace=terraform_data.mq_password) to rotate.
data "aws_secretsmanager_random_password" "mq" {
  password_length     = 40
  exclude_punctuation = true
}

resource "terraform_data" "mq_password" {
  input = data.aws_secretsmanager_random_password.mq.random_password

  lifecycle {
    ignore_changes = [input]
  }
}

resource "aws_secretsmanager_secret" "amqp_url" {
  #checkov:skip=CKV2_AWS_57:The broker user's password is set on the broker by Terraform; rotate with terraform apply -replace=terraform_data.mq_password, which updates broker and secret together.
  name                    = "${var.name_prefix}/amqp-url"
  description             = "AMQP_URL: the Amazon MQ broker, with credentials"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

resource "aws_secretsmanager_secret_version" "amqp_url" {
  secret_id = aws_secretsmanager_secret.amqp_url.id
  # The broker's endpoint is amqps://host:5671; the URL carries the user and password.
  secret_string = replace(
    aws_mq_broker.main.instances[0].endpoints[0],
    "amqps://",
    "amqps://${var.mq_username}:${terraform_data.mq_password.output}@",
  )
}

# --- SMTP credentials of notificacoes: {"username", "password"}, set by the operator -----------
resource "aws_secretsmanager_secret" "smtp" {
  #checkov:skip=CKV2_AWS_57:Credentials of an external SMTP provider, rotated at the provider and then stored here (docs/deploy.md).
  name                    = "${var.name_prefix}/smtp"
  description             = "SMTP_USER and SMTP_PASSWORD of notificacoes (issue 6); value put by the operator"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

# --- password of the first admin (`coworkflow admin create`), set by the operator --------------
resource "aws_secretsmanager_secret" "admin_bootstrap" {
  #checkov:skip=CKV2_AWS_57:Read once by the one-off admin task; the admin then changes the password through the API, so the stored value is not a live credential to rotate.
  name                    = "${var.name_prefix}/admin-bootstrap"
  description             = "COWORKFLOW_ADMIN_PASSWORD for the one-off admin task; value put by the operator"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

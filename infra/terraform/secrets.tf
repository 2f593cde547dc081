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
  description             = "SMTP_USER and SMTP_PASSWORD of notificacoes; value put by the operator"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

# A first value with empty credentials, so notificacoes starts before the operator puts real
# ones (ECS cannot start a task whose secret has no value; empty SMTP_USER and SMTP_PASSWORD
# mean "no login"). Written once: the operator's put-secret-value supersedes it and Terraform
# never writes it again.
resource "aws_secretsmanager_secret_version" "smtp_initial" {
  secret_id                = aws_secretsmanager_secret.smtp.id
  secret_string_wo         = jsonencode({ username = "", password = "" })
  secret_string_wo_version = 1
}

# --- PSP_WEBHOOK_SECRET: the HMAC key of the payment provider's webhooks ------------------------
# Generated (64 characters; the program wants at least 32 bytes). Enough for the sandbox (inside
# pagamentos, psp_url empty, or any provider that lets you register the key). A provider that
# issues its own key: put it with put-secret-value (docs/deploy.md), and bump
# psp_webhook_secret_version only to go back to a generated one.
resource "aws_secretsmanager_secret" "psp_webhook" {
  #checkov:skip=CKV2_AWS_57:The webhook key is shared with the payment provider; rotate by bumping psp_webhook_secret_version (or putting the provider's new key) and redeploying pagamentos and the gateway, not with a rotation Lambda.
  name                    = "${var.name_prefix}/psp-webhook-secret"
  description             = "PSP_WEBHOOK_SECRET: HMAC key of the payment provider's webhooks (pagamentos, gateway)"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

ephemeral "aws_secretsmanager_random_password" "psp_webhook" {
  password_length     = 64
  exclude_punctuation = true
}

resource "aws_secretsmanager_secret_version" "psp_webhook" {
  secret_id                = aws_secretsmanager_secret.psp_webhook.id
  secret_string_wo         = ephemeral.aws_secretsmanager_random_password.psp_webhook.random_password
  secret_string_wo_version = var.psp_webhook_secret_version
}

# --- PSP_API_KEY: {"api_key"}, the payment provider's API key, set by the operator ------------
resource "aws_secretsmanager_secret" "psp_api_key" {
  #checkov:skip=CKV2_AWS_57:Key of an external payment provider, rotated at the provider and then stored here (docs/deploy.md).
  name                    = "${var.name_prefix}/psp-api-key"
  description             = "PSP_API_KEY of pagamentos and the gateway (key api_key); value put by the operator when psp_url is set"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

# An empty key at first (no Authorization header; unused while psp_url is empty), so the tasks
# start. Written once, like smtp_initial.
resource "aws_secretsmanager_secret_version" "psp_api_key_initial" {
  secret_id                = aws_secretsmanager_secret.psp_api_key.id
  secret_string_wo         = jsonencode({ api_key = "" })
  secret_string_wo_version = 1
}

# --- password of the first admin (`coworkflow admin create`), set by the operator --------------
resource "aws_secretsmanager_secret" "admin_bootstrap" {
  #checkov:skip=CKV2_AWS_57:Read once by the one-off admin task; the admin then changes the password through the API, so the stored value is not a live credential to rotate.
  name                    = "${var.name_prefix}/admin-bootstrap"
  description             = "COWORKFLOW_ADMIN_PASSWORD for the one-off admin task; value put by the operator"
  kms_key_id              = aws_kms_key.main.arn
  recovery_window_in_days = 7
}

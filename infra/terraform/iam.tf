# Execution roles (what ECS does for a task: pull its image, write its log group, read the
# secrets its task definition names): one per task, each limited to its own repository, log
# group and secrets. The task role (what the containers may call): coworkflow calls no AWS API;
# the observability collector beside it (observability.tf) gets its log writes and X-Ray there.
locals {
  execution_role_tasks = setunion(local.task_names, ["db-bootstrap"])
  execution_secret_arns = merge(local.task_secret_arns, {
    "db-bootstrap" = [aws_db_instance.main.master_user_secret[0].secret_arn, aws_secretsmanager_secret.db_app.arn]
  })
}

data "aws_iam_policy_document" "ecs_tasks_assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ecs-tasks.amazonaws.com"]
    }
    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [data.aws_caller_identity.current.account_id]
    }
  }
}

resource "aws_iam_role" "execution" {
  for_each           = local.execution_role_tasks
  name               = "${var.name_prefix}-${each.key}-execution"
  assume_role_policy = data.aws_iam_policy_document.ecs_tasks_assume.json
}

data "aws_iam_policy_document" "execution" {
  for_each = local.execution_role_tasks

  # Not resource-scoped by AWS: the registry login token.
  statement {
    sid       = "RegistryLogin"
    actions   = ["ecr:GetAuthorizationToken"]
    resources = ["*"]
  }

  dynamic "statement" {
    for_each = each.key == "db-bootstrap" ? [] : [local.task_image_repository[each.key]]
    content {
      sid       = "PullOwnImage"
      actions   = ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer", "ecr:BatchCheckLayerAvailability"]
      resources = [aws_ecr_repository.this[statement.value].arn]
    }
  }

  statement {
    sid       = "WriteOwnLogs"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.task[each.key].arn}:*"]
  }

  dynamic "statement" {
    for_each = length(local.execution_secret_arns[each.key]) > 0 ? [1] : []
    content {
      sid       = "ReadOwnSecrets"
      actions   = ["secretsmanager:GetSecretValue"]
      resources = local.execution_secret_arns[each.key]
    }
  }

  dynamic "statement" {
    for_each = length(local.execution_secret_arns[each.key]) > 0 ? [1] : []
    content {
      sid       = "DecryptOwnSecrets"
      actions   = ["kms:Decrypt"]
      resources = [aws_kms_key.main.arn]
      condition {
        test     = "StringEquals"
        variable = "kms:ViaService"
        values   = ["secretsmanager.${var.region}.amazonaws.com"]
      }
    }
  }
}

resource "aws_iam_role_policy" "execution" {
  for_each = local.execution_role_tasks
  name     = "execution"
  role     = aws_iam_role.execution[each.key].id
  policy   = data.aws_iam_policy_document.execution[each.key].json
}

resource "aws_iam_role" "task" {
  name               = "${var.name_prefix}-task"
  description        = "Role of the coworkflow, frontend and collector containers: coworkflow calls no AWS API; the collector writes its EMF logs and traces (observability.tf)"
  assume_role_policy = data.aws_iam_policy_document.ecs_tasks_assume.json
}

# The role GitHub Actions' deploy workflow assumes through OIDC (no stored AWS keys): push
# images, register task definitions, run the one-off tasks, update the services. Only jobs of
# the given repository running in the given GitHub environment may assume it.
locals {
  github_deploy   = var.github_repository != ""
  github_oidc_url = "token.actions.githubusercontent.com"
  cluster_arn     = aws_ecs_cluster.main.arn
  account_region  = "${data.aws_partition.current.partition}:ecs:${var.region}:${data.aws_caller_identity.current.account_id}"
}

resource "aws_iam_openid_connect_provider" "github" {
  count           = local.github_deploy && var.create_github_oidc_provider ? 1 : 0
  url             = "https://${local.github_oidc_url}"
  client_id_list  = ["sts.amazonaws.com"]
  thumbprint_list = ["6938fd4d98bab03faadb97b34396831e3780aea1", "1c58a3a8518e8759bf075b76b750d4f2df264fcd"]
}

data "aws_iam_openid_connect_provider" "github" {
  count = local.github_deploy && !var.create_github_oidc_provider ? 1 : 0
  url   = "https://${local.github_oidc_url}"
}

locals {
  github_oidc_provider_arn = !local.github_deploy ? "" : (
    var.create_github_oidc_provider ? aws_iam_openid_connect_provider.github[0].arn : data.aws_iam_openid_connect_provider.github[0].arn
  )
}

data "aws_iam_policy_document" "github_assume" {
  count = local.github_deploy ? 1 : 0
  statement {
    actions = ["sts:AssumeRoleWithWebIdentity"]
    principals {
      type        = "Federated"
      identifiers = [local.github_oidc_provider_arn]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.github_oidc_url}:aud"
      values   = ["sts.amazonaws.com"]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.github_oidc_url}:sub"
      values   = ["repo:${var.github_repository}:environment:${var.github_environment}"]
    }
  }
}

resource "aws_iam_role" "github_deploy" {
  count                = local.github_deploy ? 1 : 0
  name                 = "${var.name_prefix}-github-deploy"
  assume_role_policy   = data.aws_iam_policy_document.github_assume[0].json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "github_deploy" {
  count = local.github_deploy ? 1 : 0

  statement {
    sid       = "RegistryLogin"
    actions   = ["ecr:GetAuthorizationToken"]
    resources = ["*"]
  }

  statement {
    sid = "PushImages"
    actions = [
      "ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer",
      "ecr:InitiateLayerUpload", "ecr:UploadLayerPart", "ecr:CompleteLayerUpload", "ecr:PutImage",
    ]
    resources = [for repository in aws_ecr_repository.this : repository.arn]
  }

  statement {
    sid       = "ReadDeployContext"
    actions   = ["ssm:GetParameter"]
    resources = [aws_ssm_parameter.deploy_context.arn]
  }

  # Not resource-scoped by AWS.
  statement {
    sid       = "TaskDefinitions"
    actions   = ["ecs:RegisterTaskDefinition", "ecs:DescribeTaskDefinition"]
    resources = ["*"]
  }

  statement {
    sid       = "UpdateServices"
    actions   = ["ecs:UpdateService", "ecs:DescribeServices"]
    resources = ["arn:${local.account_region}:service/${aws_ecs_cluster.main.name}/*"]
  }

  statement {
    sid     = "RunOneOffTasks"
    actions = ["ecs:RunTask"]
    resources = concat(
      ["arn:${local.account_region}:task-definition/${aws_ecs_task_definition.db_bootstrap.family}:*"],
      [for name in local.one_off_tasks : "arn:${local.account_region}:task-definition/${local.tasks[name].family}:*"],
    )
    condition {
      test     = "ArnEquals"
      variable = "ecs:cluster"
      values   = [local.cluster_arn]
    }
  }

  statement {
    sid       = "WatchOneOffTasks"
    actions   = ["ecs:DescribeTasks"]
    resources = ["arn:${local.account_region}:task/${aws_ecs_cluster.main.name}/*"]
  }

  statement {
    sid       = "ReadOneOffLogs"
    actions   = ["logs:GetLogEvents"]
    resources = [for name in setunion(local.one_off_tasks, ["db-bootstrap"]) : "${aws_cloudwatch_log_group.task[name].arn}:*"]
  }

  statement {
    sid     = "PassTaskRoles"
    actions = ["iam:PassRole"]
    resources = concat(
      [for role in aws_iam_role.execution : role.arn],
      [aws_iam_role.task.arn],
    )
    condition {
      test     = "StringEquals"
      variable = "iam:PassedToService"
      values   = ["ecs-tasks.amazonaws.com"]
    }
  }
}

resource "aws_iam_role_policy" "github_deploy" {
  count  = local.github_deploy ? 1 : 0
  name   = "deploy"
  role   = aws_iam_role.github_deploy[0].id
  policy = data.aws_iam_policy_document.github_deploy[0].json
}

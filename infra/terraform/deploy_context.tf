# What deploy.yml needs to render ecs-tasks/*.json and run the one-off tasks, in one SSM
# parameter: the same placeholder values Terraform uses (tasks.tf), per-task roles, log groups
# and repositories, and the network of the one-off tasks. ARNs and names only, no secret.
locals {
  deploy_context = {
    cluster  = aws_ecs_cluster.main.name
    template = local.task_template_common
    # The services the gateway hosts: deploy_checks.py render changes the gateway's task as
    # tasks.tf does.
    gateway_hosts = sort(var.gateway_hosts)
    tasks = {
      for name in local.task_names : name => {
        execution_role_arn = aws_iam_role.execution[name].arn
        log_group          = aws_cloudwatch_log_group.task[name].name
        repository_url     = aws_ecr_repository.this[local.task_image_repository[name]].repository_url
        service            = contains(local.deployables, name) ? name : null
      }
    }
    one_off = {
      subnets         = aws_subnet.private[*].id
      security_groups = [aws_security_group.task["one-off"].id]
      db_bootstrap    = aws_ecs_task_definition.db_bootstrap.family
      log_group       = aws_cloudwatch_log_group.task["db-bootstrap"].name
    }
  }
}

resource "aws_ssm_parameter" "deploy_context" {
  #checkov:skip=CKV2_AWS_34:Holds ARNs, names and subnet ids, no secret; a String keeps the deploy role free of KMS permissions.
  name        = "/${var.name_prefix}/deploy/context"
  description = "Placeholders for ecs-tasks/*.json and the one-off task network (read by deploy.yml)"
  type        = "String"
  # About 5 KB with fourteen tasks: over the Standard tier's 4 KB.
  tier  = "Advanced"
  value = jsonencode(local.deploy_context)
}

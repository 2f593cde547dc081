# One repository per deployable (one-off tasks run a backend image), scanned on push.
resource "aws_ecr_repository" "this" {
  for_each = local.deployables
  name     = "${var.name_prefix}/${each.key}"

  #checkov:skip=CKV_AWS_51:Tags are mutable on purpose: deploy.yml moves "latest" to each release (the issue asks for sha + latest); sha tags are never pushed twice.
  image_tag_mutability = "MUTABLE"

  image_scanning_configuration {
    scan_on_push = true
  }

  encryption_configuration {
    encryption_type = "KMS"
    kms_key         = aws_kms_key.main.arn
  }
}

resource "aws_ecr_lifecycle_policy" "this" {
  for_each   = aws_ecr_repository.this
  repository = each.value.name
  policy = jsonencode({
    rules = [
      {
        rulePriority = 1
        description  = "Untagged layers of replaced images: a week"
        selection = {
          tagStatus   = "untagged"
          countType   = "sinceImagePushed"
          countUnit   = "days"
          countNumber = 7
        }
        action = { type = "expire" }
      },
      {
        rulePriority = 2
        description  = "Keep the last 30 releases (rollback targets)"
        selection = {
          tagStatus   = "any"
          countType   = "imageCountMoreThan"
          countNumber = 30
        }
        action = { type = "expire" }
      },
    ]
  })
}

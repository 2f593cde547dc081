# One customer-managed key for the stack's data at rest: secrets, log groups, ECR, RDS
# (storage, Performance Insights, the managed master password), Amazon MQ and SSM.
resource "aws_kms_key" "main" {
  description             = "${var.name_prefix}: data at rest"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  policy                  = data.aws_iam_policy_document.kms.json
}

resource "aws_kms_alias" "main" {
  name          = "alias/${var.name_prefix}"
  target_key_id = aws_kms_key.main.key_id
}

data "aws_iam_policy_document" "kms" {
  #checkov:skip=CKV_AWS_111:A key policy's "*" resource means this key only; write access is limited to the account (IAM decides) and CloudWatch Logs under an encryption-context condition.
  #checkov:skip=CKV_AWS_356:A key policy's "*" resource means this key only.
  #checkov:skip=CKV_AWS_109:The account root statement is the default key policy: it delegates the key's administration to IAM policies instead of locking the account out.
  # The account administers the key through IAM (the usual default key policy).
  statement {
    sid       = "AccountAdministers"
    actions   = ["kms:*"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:${data.aws_partition.current.partition}:iam::${data.aws_caller_identity.current.account_id}:root"]
    }
  }

  # CloudWatch Logs encrypts this stack's log groups with the key, and nothing else.
  statement {
    sid = "CloudWatchLogsEncryptsLogGroups"
    actions = [
      "kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:Describe*",
    ]
    resources = ["*"]
    principals {
      type        = "Service"
      identifiers = ["logs.${var.region}.amazonaws.com"]
    }
    condition {
      test     = "ArnLike"
      variable = "kms:EncryptionContext:aws:logs:arn"
      values   = ["arn:${data.aws_partition.current.partition}:logs:${var.region}:${data.aws_caller_identity.current.account_id}:log-group:*"]
    }
  }
}

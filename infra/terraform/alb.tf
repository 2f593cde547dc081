# Internet-facing load balancer: /api/*, /docs, /openapi.json and /saude go to the gateway,
# everything else to the frontend. /metrics is never served publicly. With certificate_arn,
# port 80 redirects to HTTPS; without, port 80 serves (first bring-up only).
locals {
  https         = var.certificate_arn != ""
  gateway_paths = ["/api/*", "/docs", "/openapi.json", "/saude"]
}

resource "aws_lb" "main" {
  #checkov:skip=CKV2_AWS_76:Log4j exploits are blocked by AWSManagedRulesKnownBadInputsRuleSet (waf.tf); the AnonymousIpList this check also demands would block members who browse through VPNs or corporate proxies.
  name                       = var.name_prefix
  load_balancer_type         = "application"
  internal                   = false
  subnets                    = aws_subnet.public[*].id
  security_groups            = [aws_security_group.alb.id]
  drop_invalid_header_fields = true
  desync_mitigation_mode     = "defensive"
  enable_deletion_protection = var.alb_deletion_protection
  idle_timeout               = 60

  access_logs {
    bucket  = aws_s3_bucket.alb_logs.id
    prefix  = "alb"
    enabled = true
  }

  depends_on = [aws_s3_bucket_policy.alb_logs]
}

resource "aws_lb_target_group" "this" {
  #checkov:skip=CKV_AWS_378:TLS ends at the load balancer; from there to the tasks is private-subnet traffic between two security groups, and the tasks have no certificates to serve.
  for_each    = local.behind_alb
  name        = "${var.name_prefix}-${each.key}"
  target_type = "ip"
  protocol    = "HTTP"
  port        = local.task_port[each.key]
  vpc_id      = aws_vpc.main.id
  # Matches the tasks' stopTimeout: a task leaving the balancer finishes its requests, then
  # gets SIGTERM and drains the rest.
  deregistration_delay = local.stop_timeout[each.key]

  health_check {
    path                = "/saude"
    matcher             = "200"
    interval            = 15
    timeout             = 5
    healthy_threshold   = 2
    unhealthy_threshold = 3
  }
}

resource "aws_lb_listener" "http" {
  #checkov:skip=CKV_AWS_2:Port 80 redirects to HTTPS when certificate_arn is set; it serves plain HTTP only while no certificate exists.
  load_balancer_arn = aws_lb.main.arn
  port              = 80
  protocol          = "HTTP"

  default_action {
    type             = local.https ? "redirect" : "forward"
    target_group_arn = local.https ? null : aws_lb_target_group.this["frontend"].arn

    dynamic "redirect" {
      for_each = local.https ? [1] : []
      content {
        protocol    = "HTTPS"
        port        = "443"
        status_code = "HTTP_301"
      }
    }
  }
}

resource "aws_lb_listener" "https" {
  count             = local.https ? 1 : 0
  load_balancer_arn = aws_lb.main.arn
  port              = 443
  protocol          = "HTTPS"
  ssl_policy        = "ELBSecurityPolicy-TLS13-1-2-2021-06"
  certificate_arn   = var.certificate_arn

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.this["frontend"].arn
  }
}

locals {
  # The listener that serves the app: HTTPS when there is a certificate, else HTTP.
  app_listener_arn = local.https ? aws_lb_listener.https[0].arn : aws_lb_listener.http.arn
}

resource "aws_lb_listener_rule" "metrics_internal" {
  listener_arn = local.app_listener_arn
  priority     = 5

  action {
    type = "fixed-response"
    fixed_response {
      content_type = "application/json"
      status_code  = "404"
      message_body = "{\"erro\":\"rota_nao_encontrada\",\"mensagem\":\"not served here\"}"
    }
  }

  condition {
    path_pattern {
      values = ["/metrics", "/metrics/*"]
    }
  }
}

resource "aws_lb_listener_rule" "gateway" {
  listener_arn = local.app_listener_arn
  priority     = 10

  action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.this["gateway"].arn
  }

  condition {
    path_pattern {
      values = local.gateway_paths
    }
  }
}

# --- access logs (ALB writes with SSE-S3 only) ------------------------------------------------
data "aws_elb_service_account" "main" {}

resource "aws_s3_bucket" "alb_logs" {
  #checkov:skip=CKV_AWS_145:Load balancer access logs support SSE-S3 only, not SSE-KMS.
  #checkov:skip=CKV_AWS_18:This bucket holds access logs; logging access to it would need yet another bucket.
  #checkov:skip=CKV_AWS_144:Access logs are diagnostic data with a retention limit; no cross-region replica.
  #checkov:skip=CKV2_AWS_62:Nothing consumes events of new log objects.
  bucket        = "${var.name_prefix}-alb-logs-${data.aws_caller_identity.current.account_id}-${var.region}"
  force_destroy = false
}

resource "aws_s3_bucket_public_access_block" "alb_logs" {
  bucket                  = aws_s3_bucket.alb_logs.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_ownership_controls" "alb_logs" {
  bucket = aws_s3_bucket.alb_logs.id
  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_versioning" "alb_logs" {
  bucket = aws_s3_bucket.alb_logs.id
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "alb_logs" {
  bucket = aws_s3_bucket.alb_logs.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "AES256"
    }
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "alb_logs" {
  bucket = aws_s3_bucket.alb_logs.id
  rule {
    id     = "expire"
    status = "Enabled"
    filter {}
    expiration {
      days = var.log_retention_days
    }
    noncurrent_version_expiration {
      noncurrent_days = 7
    }
    abort_incomplete_multipart_upload {
      days_after_initiation = 1
    }
  }
}

resource "aws_s3_bucket_policy" "alb_logs" {
  bucket = aws_s3_bucket.alb_logs.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid    = "LoadBalancerWritesLogs"
        Effect = "Allow"
        Principal = {
          AWS     = data.aws_elb_service_account.main.arn
          Service = "logdelivery.elasticloadbalancing.amazonaws.com"
        }
        Action   = "s3:PutObject"
        Resource = "${aws_s3_bucket.alb_logs.arn}/alb/AWSLogs/${data.aws_caller_identity.current.account_id}/*"
      },
      {
        Sid       = "TLSOnly"
        Effect    = "Deny"
        Principal = "*"
        Action    = "s3:*"
        Resource  = [aws_s3_bucket.alb_logs.arn, "${aws_s3_bucket.alb_logs.arn}/*"]
        Condition = { Bool = { "aws:SecureTransport" = "false" } }
      },
    ]
  })

  depends_on = [aws_s3_bucket_public_access_block.alb_logs]
}

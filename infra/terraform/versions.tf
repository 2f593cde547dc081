terraform {
  # 1.11: write-only arguments (secrets that never reach the state).
  required_version = ">= 1.11.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.100"
    }
  }

  # Partial configuration: `terraform init -backend-config=backend.hcl` (docs/deploy.md).
  backend "s3" {}
}

provider "aws" {
  region = var.region

  default_tags {
    tags = {
      Project   = "coworkflow"
      Stack     = var.name_prefix
      ManagedBy = "terraform"
    }
  }
}

data "aws_caller_identity" "current" {}
data "aws_partition" "current" {}
# Two named zones (availability_zones), so the set never changes under the stack.
data "aws_availability_zones" "selected" {
  state = "available"
  filter {
    name   = "zone-name"
    values = length(var.availability_zones) > 0 ? var.availability_zones : ["${var.region}a", "${var.region}b"]
  }
}

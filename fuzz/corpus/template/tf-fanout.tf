resource "aws_dynamodb_table" "t0" {
  name = "${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}${aws_dynamodb_table.t1.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t1" {
  name = "${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}${aws_dynamodb_table.t2.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t2" {
  name = "${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}${aws_dynamodb_table.t3.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t3" {
  name = "${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}${aws_dynamodb_table.t4.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t4" {
  name = "${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}${aws_dynamodb_table.t5.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t5" {
  name = "${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}${aws_dynamodb_table.t6.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t6" {
  name = "${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}${aws_dynamodb_table.t7.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t7" {
  name = "${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}${aws_dynamodb_table.t8.name}"
  hash_key = "pk"
}
resource "aws_dynamodb_table" "t8" {
  name = "x"
}
